"""What the model calls cost: the ledger the worker appends to (``ledger``) and the spend cap read
from it (``budget``). Below both the worker, which writes and checks them, and the page and the CLI,
which only read them."""
