"""Retrieval question sets (dev.jsonl, test.jsonl) with gold corpus ids; see check_sets.py."""
