"""Shared machinery: the problem protocol, results, runner, certificates, registry."""
