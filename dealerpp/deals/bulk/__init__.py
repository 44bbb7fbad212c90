"""Bulk deal I/O: numpy-backed batches and chunked conversion of full deals.

Importing this package imports numpy; nothing outside it imports it, so the
preprocessing path stays numpy-free.
"""
