"""Transactions that span tables: the chip ledger, accounts, match recording."""
