"""Build-time tools: they write data the package ships, and are not shipped.

    python tools/term_build.py       # dealerpp/shapes/generated/term_data.py
"""
