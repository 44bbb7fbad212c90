"""Write the corpus of broken (and trap) dealer scripts and record what real
dealer says about each in manifest.json.

    python tests/check/corpus/record.py [/usr/games/dealer]

Each case becomes NAME.dl. The manifest records, per file, dealer's exit
status and first stderr line (``dealer -s 1 -g 3 FILE``), and where check
must report: ``check_line`` is the line dealer names, or a more precise one
(dealer names the line of the token it read *after* the mistake, and does not
count newlines inside strings). ``kind`` is "error" (dealer rejects or crashes:
check must report an error there) or "warning" (dealer accepts and
misbehaves: check must report no error and a warning there).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent

# name: (kind, check_line, script, what the case is about)
ERRORS: dict[str, tuple[int, str, str]] = {
    "eof_after_operator": (1, "condition hcp(north) >\n", "expression cut short at end of file"),
    "unclosed_paren": (1, "x = (1 + 2\ny = 3\n", "missing )"),
    "extra_paren": (1, "x = 1 + 2)\n", "one ) too many"),
    "minus_call": (1, "x = -hcp(north)\n", "unary minus on a function"),
    "minus_variable": (2, "a = 1\nb = -a\n", "unary minus on a variable"),
    "minus_paren": (1, "x = -(1 + 2)\n", "unary minus on parentheses"),
    "double_minus": (1, "x = --4\n", "two unary minuses"),
    "minus_shape_number": (1, "x = -4333\n", "a 4-digit number is a shape to the scanner"),
    "trailing_hash": (1, "x = 1 # comment\n", "# after code"),
    "indented_hash": (2, "x = 1\n  # comment\n", "# not in column 1"),
    "hash_last_line": (2, "x = 1\n# comment", "# comment without newline at end"),
    "slashes_last_line": (1, "x = 1 // comment", "// comment without newline at end"),
    "unclosed_block_comment": (2, "x = 1\n/* never closed\n", "EOF found in comment"),
    "nested_block_comment": (1, "x = 1 /* a /* b */ */\n", "comments do not nest"),
    "string_in_expression": (1, 'x = "abc"\n', "a string as a value"),
    "assign_as_compare": (2, "x = 1\ncondition x = 1\n", "= instead of =="),
    "single_ampersand": (1, "x = 1 & 0\n", "& instead of &&"),
    "single_bar": (1, "x = 1 | 0\n", "| instead of ||"),
    "shape_block": (1, "x = shape{north, 4333}\n", "dealerpp syntax given to dealer"),
    "semicolon": (1, "x = 1;\n", "C habit"),
    "brackets": (1, "x = [1]\n", "brackets"),
    "lone_carriage_return": (1, "x = 1\ry = 2\n", "CR without LF"),
    "reserved_all": (1, "all = 1\n", "keyword as variable"),
    "reserved_hcp": (1, "hcp = 3\n", "function name as variable"),
    "reserved_top2": (1, "top2 = 3\n", "alias as variable"),
    "holding_name": (1, "SA = 1\n", "holding-shaped name"),
    "single_letter_suit_name": (1, "C = 1\n", "C is an empty club holding"),
    "card_name": (1, "AS = 1\n", "card-shaped name"),
    "contract_name": (1, "x3N = 1\n", "contract-shaped name"),
    "shape_name": (1, "xxxx = 1\n", "shape-shaped name"),
    "vulnerable_both": (1, "vulnerable both\n", "not a vulnerability"),
    "vulnerable_capital": (1, "vulnerable All\n", "keywords are case-sensitive"),
    "dealer_letter": (1, "dealer n\n", "seat must be spelt out"),
    "predeal_nothing": (1, "predeal north\n", "seat without holding"),
    "predeal_comma_between_seats": (1, "predeal north SA, south HA\n", "comma before next seat"),
    "predeal_missing_comma": (1, "predeal north SAK HQ\n", "holdings need commas"),
    "predeal_unordered_holding": (1, "predeal north SKA\n", "cards must be in order"),
    "predeal_negative_length": (1, "predeal spades(north) == -1\n", "NUMBER only"),
    "predeal_then_bare_condition": (2, "predeal north SA\nspades(north) > 3\n",
                                    "the bare condition is read as a predeal argument"),
    "altcount_empty": (1, "altcount\n", "altcount needs its index"),
    "cccc_with_suit": (1, "x = cccc(north, spades)\n", "cccc takes a seat only"),
    "quality_without_suit": (1, "x = quality(north)\n", "quality needs a suit"),
    "hascard_holding": (1, "x = hascard(north, S2)\n", "a card is rank then suit"),
    "shape_missing_comma": (1, "x = shape(north 4333)\n", "comma after the seat"),
    "shape_trailing_plus": (1, "x = shape(north, 4333 +)\n", "+ with nothing after"),
    "shape_spaced": (1, "x = shape(north, x x x x)\n", "a shape is one word"),
    "shape_five_digits": (1, "x = shape(north, 43330)\n", "five digits"),
    "frequency_expression_bound": (1, "action frequency (hcp(north), 0, hcp(south))\n",
                                   "bounds are numbers"),
    "printes_empty": (1, "action printes()\n", "nothing to print"),
    "printes_trailing_comma": (1, 'action printes("a",)\n', "comma inside printes"),
    "print_empty": (1, "action print()\n", "no seat"),
    "print_missing_comma": (1, "action print(north south)\n", "seats need commas"),
    "average_two_labels": (1, 'action average "a" "b" 1\n', "one label only"),
    "average_nothing": (1, "action average\n", "average needs an expression"),
    "action_leading_comma": (1, "action , printall\n", "comma first"),
    "action_double_comma": (1, "action printall,, printew\n", "two commas"),
    "score_bad_vulnerability": (1, "x = score(NS, x3N, 9)\n", "score takes nv or vul"),
    "tricks_no_strain": (1, "x = tricks(north)\n", "tricks needs a strain"),
    "call_without_parens": (1, "x = hcp north\n", "functions need parentheses"),
    "two_operators": (1, "x = 1 +* 2\n", "operator after operator"),
    "ternary_without_colon": (1, "x = 1 ? 2\ny = 3\n", "?: needs its :"),
    "misspelt_function": (2, "opener = hcp(north) >= 12\n"
                          "balanced = shape(north, any 4333) && hpc(north) < 18\n",
                          "hpc is read as a variable, (north) as a new statement"),
    "misspelt_keyword": (1, "generat 10\n", "an unknown word is a variable"),
    "produce_without_number": (1, "produce\ncondition 1\n", "produce needs a number"),
    "unknown_variable": (1, "condition opener && hcp(south) > 10\n", "never defined"),
    "use_before_definition": (1, "a = b + 1\nb = 2\n", "defined too late"),
    "redefined_variable": (3, "a = 1\nb = 2\na = 3\n", "defined twice"),
    "self_reference": (1, "x = x + 1\n", "a variable cannot refer to itself"),
    "shape_not_13": (1, "x = shape(north, 4432 + 4442)\n", "4442 has 14 cards"),
    "shape_x_over_13": (1, "x = shape(north, 95xx)\n", "95xx has 14 cards already"),
    "shape_any_not_13": (1, "x = shape(north, any 5332 - any 5432)\n", "5432 has 14 cards"),
    "too_many_shapes": (32, "".join(f"s{i} = shape(north, {i % 4 + 4}xxx)\n" for i in range(32)),
                        "the 32nd shape()"),
    "card_twice_one_hand": (1, "predeal north SAK, HQ, SK\n", "KS twice for north"),
    "card_twice_two_hands": (2, "predeal north SAK\npredeal south SQ, SK\n", "KS twice"),
    "hand_over_13": (1, "predeal north SAKQJT98765432, HA\n", "14 cards"),
    "hand_over_13_two_statements": (2, "predeal north SAKQJT98765432\npredeal north HA\n",
                                    "13 + 1 cards"),
    "pointcount_14": (1, "pointcount 6 4 3 2 1 1 0 0 0 0 0 0 0 1\n", "14 values"),
    "altcount_14": (1, "altcount 3 6 4 3 2 1 1 0 0 0 0 0 0 0 1\n", "14 values"),
    "predeal_length_twice": (1, "predeal spades(north) == 4 spades(north) == 4\n",
                             "same suit twice"),
    "predeal_lengths_seat_over_13": (1, "predeal spades(north) == 7 hearts(north) == 7\n",
                                     "7 + 7 for north"),
    "predeal_lengths_suit_over_13": (1, "predeal spades(north) == 7 spades(south) == 7\n",
                                     "7 + 7 spades"),
    "divide_by_zero": (1, "condition hcp(north) / 0 > 1\n", "SIGFPE"),
    "modulo_by_constant_zero": (2, "produce 1\naction average hcp(north) % (2 - 2)\n", "SIGFPE"),
    "divide_by_wrapped_zero": (1, "condition hcp(north) / 4294967296 > 1\n",
                               "atoi wraps 2^32 to 0"),
    "divide_by_zero_through_variable": (1, "z = 10 / 0\ncondition z > hcp(north)\n", "SIGFPE"),
    "evalcontract": (1, "action evalcontract\n", "aborts at run time"),
    "altcount_out_of_range": (1, "altcount 12 1\n", "segfault"),
    "altcount_winners": (1, "altcount 8 " + "4 " * 13 + "\ncondition hcp(north) >= 0\n",
                         "analysis asserts under 4 winners a suit"),
    "altcount_far_out_of_range": (1, "altcount 5000\n", "segfault"),
    "pointcount_swallows_number": (2, "pointcount 4 3 2 1\n-5 < hcp(north)\n",
                                   "-5 becomes a pointcount value, then < is an error"),
    "frequency_reversed": (1, "action frequency (hcp(north), 10, 0)\n", "Out of memory"),
    "frequency2d_reversed_far": (1, "action frequency (1, 0, 3, hcp(north), 10, 0)\n",
                                 "Out of memory"),
    "nested_too_deeply": (1, "x = " + "(" * 9994 + "1" + ")" * 9994 + "\n",
                          "bison's 10000-entry stack"),
    "action_list_too_long": (1, "action " + ", ".join(["printall"] * 4999) + "\n",
                             "each item of the right-recursive list stays on the stack"),
    "non_ascii_mid_statement": (1, "x = \u00e9 1\n", "dealer stops reading at é"),
}

WARNINGS: dict[str, tuple[int, str, str]] = {
    "comment_echo": (1, "/* EOF <here> */\nx = 1\n", "E O F < > printed"),
    "printcompact_swallows": (2, "x = 1\naction printcompact\n(x)\n", "argument on next line"),
    "printoneline_swallows": (1, "action printoneline\n(hcp(north))\n", "argument on next line"),
    "condition_replaced": (2, "condition hcp(north) > 10\ncondition hcp(south) > 10\n",
                           "only the last condition counts"),
    "bare_condition_replaced": (2, "condition hcp(north) > 10\nhcp(south) > 10\n",
                                "a bare expression is a condition"),
    "dealer_replaced": (2, "dealer north\ndealer south\n", "last dealer wins"),
    "vulnerable_replaced": (2, "vulnerable NS\nvulnerable EW\n", "last vulnerable wins"),
    "action_replaced": (2, "action printall\naction printew\n", "last action wins"),
    "generate_ignored": (2, "generate 10\ngenerate 20\n", "first generate wins"),
    "produce_ignored": (2, "produce 10\nproduce 20\n", "first produce wins"),
    "unused_zero_division": (1, "x = 1 / 0\n", "never evaluated"),
    "guarded_zero_division": (1, "condition hcp(north) > 40 ? 1 / 0 : 1\n",
                              "the branch is never taken"),
    "variable_divisor": (1, "condition 20 / hcp(north) > 2\n",
                         "crashes only on a deal where north has no points"),
    "altcount_shifted": (1, "altcount 3 1 1 1 1\n", "altcount 3 changes pt1"),
    "altcount_hcp": (1, "altcount 0 1 1 1 1\n", "altcount 0 changes hcp"),
    "predeal_length_ignored": (1, "predeal spades(north) == 3\n", "parsed, ignored"),
    "non_ascii_truncates": (2, "x = 1\n\u00e9 y = ]]]\n", "rest of file ignored"),
    "frequency2d_reversed": (1, "action frequency (1, 0, 3, 2, 5, 4)\n", "empty 2-D range"),
    "shape_list_starts_with_minus": (1, "x = shape(north, - 5xxx)\n", "always false"),
    "altcount_corrupts": (1, "altcount 14 1 2 3\n", "writes past the table, no crash"),
    "vulnerable_without_keyword": (1, "all EW\n", "read as vulnerable EW"),
    "vulnerable_vulnerable": (1, "vulnerable vulnerable\n", "no vulnerability given"),
}


def run_dealer(dealer: str, path: Path) -> tuple[int, str]:
    done = subprocess.run([dealer, "-s", "1", "-g", "3", path.name], cwd=path.parent,
                          capture_output=True, timeout=30)
    lines = done.stderr.decode("latin-1").strip().splitlines()
    return done.returncode, lines[0] if lines else ""


def main() -> None:
    dealer = sys.argv[1] if len(sys.argv) > 1 else "/usr/games/dealer"
    manifest = []
    for kind, cases in (("error", ERRORS), ("warning", WARNINGS)):
        for name, (line, script, about) in cases.items():
            path = HERE / f"{name}.dl"
            path.write_bytes(script.encode("utf-8"))
            status, said = run_dealer(dealer, path)
            manifest.append({"file": path.name, "kind": kind, "about": about,
                             "dealer_status": status, "dealer_says": said,
                             "check_line": line})
    (HERE / "manifest.json").write_text(json.dumps(manifest, indent=1) + "\n")


if __name__ == "__main__":
    main()
