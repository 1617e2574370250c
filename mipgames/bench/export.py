"""The runs as files other tools read: CSV always, Parquet when pandas and a Parquet engine are importable.

CSV columns are the database's, in its order; an empty field is NULL (the
store keeps no empty strings, so nothing is lost), numbers are written
exactly (``repr`` of a float reads back bit for bit) and :func:`read_runs_csv`
gives back the rows the database holds.
"""

from __future__ import annotations

import csv
import importlib.util
import io
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from mipgames.bench.store import COLUMNS, NAMES
from mipgames.core.errors import UsageError
from mipgames.core.files import read_text, staged_output, write_text_atomic

_TYPES = {name: kind.split()[0] for name, kind in COLUMNS}


def _cell(value: Any) -> Any:
    if value is None:
        return ""
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, bool):
        return int(value)
    return value


def records_csv(records: Sequence[dict[str, Any]], columns: Sequence[str] | None = None) -> str:
    """CSV text of flat records (header from ``columns`` or the first record's keys)."""
    columns = list(columns if columns is not None else (records[0] if records else {}))
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(columns)
    for record in records:
        writer.writerow([_cell(record.get(c)) for c in columns])
    return out.getvalue()


def write_csv(records: Sequence[dict[str, Any]], path: str | Path, columns: Sequence[str] | None = None) -> Path:
    return write_text_atomic(path, records_csv(records, columns))


def write_runs_csv(rows: Iterable[dict[str, Any]], path: str | Path) -> Path:
    return write_csv(list(rows), path, NAMES)


def _value(name: str, text: str) -> Any:
    if text == "":
        return None
    kind = _TYPES.get(name, "TEXT")
    if kind == "REAL":
        return float(text)
    if kind == "INTEGER":
        return int(text)
    return text


def read_runs_csv(path: str | Path) -> list[dict[str, Any]]:
    """Rows from a runs CSV written by :func:`write_runs_csv`, typed as the database types them."""
    text = read_text(path, "runs CSV")
    reader = csv.reader(io.StringIO(text))
    header = next(reader, [])
    return [{name: _value(name, cell) for name, cell in zip(header, line)} for line in reader]


def parquet_engine() -> str | None:
    """The Parquet engine pandas would use, or None when pandas or both engines are missing."""
    if importlib.util.find_spec("pandas") is None:
        return None
    for engine in ("pyarrow", "fastparquet"):
        if importlib.util.find_spec(engine) is not None:
            return engine
    return None


def write_runs_parquet(rows: Iterable[dict[str, Any]], path: str | Path) -> Path:
    """The runs as a Parquet file with nullable column types (integers stay integers next to NULLs)."""
    engine = parquet_engine()
    if engine is None:
        raise UsageError(
            "Parquet export needs pandas and pyarrow (or fastparquet): pip install pandas pyarrow; "
            "the CSV export needs nothing"
        )
    import pandas as pd

    rows = list(rows)
    dtypes = {"REAL": "Float64", "INTEGER": "Int64", "TEXT": "string"}
    frame = pd.DataFrame({name: pd.array([r.get(name) for r in rows], dtype=dtypes[_TYPES[name]]) for name in NAMES})
    with staged_output(path) as tmp:
        frame.to_parquet(tmp, engine=engine, index=False)
    return Path(path)
