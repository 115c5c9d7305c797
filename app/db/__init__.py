"""Persistence: SQLAlchemy 2 models, engine and session factories, migrations."""
