"""What the model calls cost: the ledger the worker appends to (``ledger``), the spend cap read from
it (``budget``), the markers of the calls under way (``markers``) and whether a cap pauses
distillation now, as the page and the CLI tell it (``paused``). Below both the worker, which writes
and checks them, and the page and the CLI, which only read them."""
