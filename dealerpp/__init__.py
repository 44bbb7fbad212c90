"""dealerpp: a compiler-grade preprocessor for dealer scripts, and a deal-file toolkit."""

__version__ = "0.1.0"
