"""``dealerpp run SCRIPT [DEALER ARGS...]``: preprocess, then pipe into dealer."""

from __future__ import annotations

import argparse
import subprocess
import sys
from collections.abc import Sequence

from dealerpp.cli import signals
from dealerpp.cli.common import add_emit_option
from dealerpp.cli.preprocess import preprocess_file
from dealerpp.script.dealer import NOT_INSTALLED, find_dealer
from dealerpp.status import EXIT_NOT_FOUND, exit_for_signal

EPILOG = """\
examples:
  dealerpp run opening.dpp                 deal with the script's own settings
  dealerpp run opening.dpp -s 1 -p 10      pass -s 1 -p 10 on to dealer
  dealerpp run -s 1 -p 10 opening.dpp      the same: dealer's options may come first

The checker's findings are shown as warnings, as the plain preprocessor
shows them. dealer's output and exit status are passed through (128+N when
dealer dies by signal N). dealer is looked up on PATH, then in /usr/games
(Debian: apt-get install dealer).
"""


def build_parser(prog: str) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=prog, epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Preprocess a dealer.dpp script and run dealer on the result.")
    parser.add_argument("script", metavar="SCRIPT", help="the script ('-': standard input)")
    dealer_args = parser.add_argument("dealer_args", nargs=argparse.REMAINDER,
                                      metavar="DEALER ARGS", help="arguments for dealer")
    # argparse counts a REMAINDER as required and would ask for it when
    # SCRIPT is missing; dealer's arguments are optional.
    dealer_args.required = False
    add_emit_option(parser)
    parser.add_argument("--no-check", action="store_true",
                        help="do not run the checker on the preprocessed script")
    return parser


# dealer's options (dealer -h): flags, and those that take a value.
DEALER_FLAGS = frozenset("023euvmqV")
DEALER_VALUED = frozenset("pgsl")
OUR_VALUED = ("--emit",)


def script_first(argv: Sequence[str]) -> tuple[list[str], list[str], bool]:
    """``run -s 1 SCRIPT`` as ``run SCRIPT -s 1``: dealer's options written
    before the script go after it, where dealer's arguments are read; our own
    options stay where they are. Also the short options before the script
    that are neither dealer's nor ours, which argparse would only call
    unrecognised, and whether a script was named at all."""
    ours: list[str] = []
    dealers: list[str] = []
    strangers: list[str] = []
    index = 0
    while index < len(argv):
        argument = argv[index]
        if argument == "-" or not argument.startswith("-") or argument == "--":
            break
        letters = argument[1:]
        taken = 1
        if argument in OUR_VALUED:
            ours += argv[index:index + 2]
            taken = 2
        elif argument.startswith("--") or argument == "-h":
            ours.append(argument)
        elif letters[0] in DEALER_VALUED:
            taken = 1 if len(letters) > 1 else 2
            dealers += argv[index:index + taken]
        elif set(letters) <= DEALER_FLAGS:
            dealers.append(argument)
        else:
            strangers.append(argument)
            ours.append(argument)
        index += taken
    arranged = [*ours, *argv[index:index + 1], *dealers, *argv[index + 1:]]
    return arranged, strangers, index < len(argv)


def main(argv: Sequence[str], prog: str = "dealerpp run") -> int:
    parser = build_parser(prog)
    arranged, strangers, named = script_first(argv)
    if not {"-h", "--help"} & set(arranged):
        if strangers:
            parser.error(f"unknown option {strangers[0]}; dealer's arguments go after the "
                         f"script: {prog} SCRIPT {strangers[0]} ...")
        if not named:
            parser.error("the following arguments are required: SCRIPT")
    options = parser.parse_args(arranged)
    result = preprocess_file(options.script, prog, options.emit, check=not options.no_check)
    if isinstance(result, int):
        return result
    dealer = find_dealer()
    if dealer is None:
        print(f"{prog}: error: {NOT_INSTALLED}", file=sys.stderr)
        return EXIT_NOT_FOUND
    sys.stdout.flush()
    signals.unblocked_for_children()  # dealer must stop on Ctrl-C like any program
    done = subprocess.run([dealer, *options.dealer_args],
                          input=result.text.encode("utf-8", errors="surrogateescape"),
                          check=False)
    # Python reports a death by signal N as -N; a shell as 128+N.
    return done.returncode if done.returncode >= 0 else exit_for_signal(-done.returncode)
