"""The data dictionary: what every column of every exported table means, in which unit, and the Data Package that
documents a run's tables.

Each run writes ``data/<run>/datapackage.json`` (a Frictionless Data Package, version 1: one tabular resource per
CSV file, each field with its name, type, description and unit) beside its tables, and ``figures/<run>/
captions.json`` beside its figures. A column's meaning is looked up in :data:`COLUMNS` (most names mean one thing
everywhere), then in :data:`BY_TABLE` (a name whose meaning depends on its table), then in :data:`PATTERNS` (the
numbered columns of the game space); a table with a column none of them describes is refused when the page
finishes (:func:`schema_of`), so no table leaves undocumented.
"""

from __future__ import annotations

import json
import re

import pandas as pd

from stb_core.choice import TIE_BREAKS
from stb_core.limits import PAGE_EXACT_UP_TO

P, PP, PCT, TILES, STAKES, COUNT = "probability (0 to 1)", "probability difference (0 to 1)", "percent", "tiles", \
    "stakes", "count"
SUM, SCORE, TEXT = "sum of tile numbers", "points (the Open and Shut Case scores)", ""
BOARD, MOVE, FLAG, RATIO = "set of tiles", "set of tiles", "true or false", "ratio"
BY_OBJECTIVE = ("the objective's: probability (0 to 1) for win, sum of tile numbers for remaining-sum, tiles for "
                "flipped-count, points for digits")

COLUMNS: dict[str, tuple[str, str]] = {
    # boards, moves, rolls
    "board": ("the open tiles, written as a set", BOARD),
    "board_mask": ("the open tiles as a bit-mask: tile t is open when bit t - 1 is set", "bit-mask"),
    "board_after": ("the open tiles after the move", BOARD),
    "open": ("the open tiles before the roll", BOARD), "open_after": ("the open tiles after the move", BOARD),
    "label": ("the open tiles, written as a set", BOARD),
    "state": ("the open tiles (a state, in the source's words)", BOARD),
    "open_sum": ("the sum of the open tiles", SUM), "open_tiles": ("how many tiles are open", TILES),
    "tiles_open": ("how many tiles are open", TILES), "smallest_tile": ("the lowest open tile", "tile number"),
    "largest_tile": ("the highest open tile", "tile number"),
    "roll": ("the roll: what the dice show, added up (where the move rule reads the dice, die-or-sum, the dice "
             "themselves, like 3,4)", "pips"),
    "dice_total": ("the roll: what the dice show, added up", "pips"), "dice": ("how many dice are rolled", "dice"),
    "move": ("the tiles shut by the move", MOVE), "action": ("the tiles shut (an action, in the source's words)", MOVE),
    "turn": ("the turn of the game, from 1", COUNT), "moves": ("the number of moves of a winning sequence", COUNT),
    "tiles": ("the tiles 1 to this number make the board", TILES),
    "largest_roll": ("the largest roll the dice show", "pips"),
    "weight": ("how many of the dice's equally likely outcomes show the roll", COUNT),
    "legal_moves": ("how many moves are legal", COUNT), "best_move": ("the best move", MOVE),
    "runner_up": ("the second-best move (empty when the move is forced)", MOVE),
    "optimal_move": ("the move optimal play makes", MOVE), "policy_move": ("the move the policy makes", MOVE),
    "source_rule_move": ("the move the source's rule (most winning sequences) makes", MOVE),
    "move_a": ("the move of the first solution compared", MOVE), "move_b": ("the move of the second solution", MOVE),
    "optimal_action": ("the optimal action, the first in the source's order among the best", MOVE),
    "valid_actions": ("the legal actions, in the source's order (by number of tiles, then lexicographic)", TEXT),
    "largest_tile_action": ("the best action that shuts the largest tile any legal action could", MOVE),
    "shuts": ("the tiles that play shuts", MOVE),
    "other_move": ("whether the move not played is as good for the objective (a tie) or worse", TEXT),
    "decision": ("move (after a roll) or dice (before it)", TEXT),
    # values
    "p_win": ("the chance of winning with optimal play", P),
    "p_win_exact": ("the same chance as an exact fraction p/q (0 where a tile exceeds the largest roll; empty "
                    "where not computed exactly)", "fraction"),
    "p_win_after": ("the chance of winning after the move, optimal play afterwards", P),
    "p_win_after_optimal": ("the chance of winning after the optimal move", P),
    "p_win_after_rule": ("the chance of winning after the rule's move", P),
    "p_win_one_die": ("the chance of winning rolling one die now, optimal play afterwards", P),
    "p_win_all_dice": ("the chance of winning rolling all the dice now, optimal play afterwards", P),
    "exact_p_win": ("the chance of winning, exact", P),
    "simulated_p_win": ("the share of simulated games won", P),
    "low_95": ("lower end of the Wilson 95% interval of the simulated share", P),
    "high_95": ("upper end of the Wilson 95% interval of the simulated share", P),
    "z": ("how many standard errors the simulated share lies from the exact value", "standard errors"),
    "games": ("how many games were simulated", COUNT),
    "expected_remaining_sum": ("the least expected sum of the tiles left open", SUM),
    "expected_tiles_shut": ("the most expected number of tiles shut", TILES),
    "expected_sum_after": ("the least expected sum left after the move", SUM),
    "expected_sum_left": ("the expected sum of the tiles left open", SUM),
    "value_after": ("the value after the move, optimal play afterwards, in the objective's unit", BY_OBJECTIVE),
    "runner_up_value": ("the value after the second-best move", BY_OBJECTIVE),
    "value_one_die": ("the chance of winning rolling one die now", P),
    "value_all_dice": ("the chance of winning rolling all the dice now", P),
    "optimal_value": ("the value of optimal play, in the objective's unit", BY_OBJECTIVE),
    "value_name": ("the column name of the objective's value", TEXT),
    "objective": ("what a finished game is worth: win, remaining-sum or flipped-count", TEXT),
    "objective_name": ("the objective as the pages name it", TEXT),
    "policy": ("how the moves are chosen (a policy)", TEXT), "strategy": ("the strategy as the pages name it", TEXT),
    "loss": ("what the policy's move costs against the optimal move, in the objective's unit", BY_OBJECTIVE),
    "weighted_loss": ("the loss times the chance the policy faces the decision: its share of the loss per game",
                      BY_OBJECTIVE + ", per game"),
    "reach": ("the chance that the policy, from the full board, ever stands on the board", P),
    "p_roll": ("the chance of the roll with the dice the policy rolls", P),
    "loss_percent": ("the loss in per cent of the optimal value", PCT),
    "share_of_loss": ("this decision's share of the whole loss", P),
    "cumulative_share": ("the share of the whole loss in this decision and the costlier ones", P),
    "rank": ("the decision's rank by what it costs per game (1: the costliest)", COUNT),
    "win_chance_lost": ("the chance of winning the rule's move gives up", PP),
    "loss_for_a": ("what the second solution's move costs, in the first solution's objective", BY_OBJECTIVE),
    "loss_for_b": ("what the first solution's move costs, in the second solution's objective", BY_OBJECTIVE),
    # counts and sequences
    "sequences": ("dice-weighted winning sequences of that many moves", COUNT),
    "share": ("the share of the whole", P), "sets": ("sets of distinct numbers adding up to the roll", COUNT),
    "on_board": ("whether (or how many of) the sets have all their tiles on this board", COUNT),
    "sequences_after": ("dice-weighted winning sequences left after the move", COUNT),
    "sequences_after_optimal": ("winning sequences left after the optimal move", COUNT),
    "sequences_after_rule": ("winning sequences left after the rule's move", COUNT),
    "more_sequences": ("whether the rule's move leaves more winning sequences than the optimal move", FLAG),
    "source_rule_picks": ("whether the source's rule picks this move", FLAG),
    "optimal_picks": ("whether optimal play picks this move", FLAG),
    # dice choice
    "one_die": ("the one-die rule: never, high-shut or sum-le-6", TEXT), "rules": ("the rules, in words", TEXT),
    "this_run": ("whether this row is this run's own game", FLAG),
    "one_die_rule": ("when one die may be rolled, in words", TEXT),
    "gain": ("what the one-die choice adds (or the better choice's margin)", P),
    "best": ("the better choice of dice (either: both equal)", TEXT),
    "one_minus_all": ("the chance of winning with one die minus with all the dice", PP),
    "boards": ("how many boards", COUNT), "one_die_better": ("boards where one die is better", COUNT),
    "all_dice_better": ("boards where all the dice are better", COUNT), "equal": ("boards where both are equal", COUNT),
    "one_die_always": ("whether one die is better on every such board", FLAG),
    "one_die_never": ("whether one die is better on none", FLAG),
    "one_die_sometimes": ("whether one die is better on some but not all", FLAG),
    "statement": ("the source's sentence, read as a rule", TEXT),
    "key": ("the key of the statement or published figure in data/published", TEXT),
    "true_on": ("boards where the statement holds", COUNT), "false_on": ("boards where it does not", COUNT),
    "opposite_on": ("boards where the other choice is better", COUNT),
    "exceptions": ("the boards where the statement does not hold", TEXT),
    # chapter 3 (the source's own columns)
    "Board Id": ("the source's board id: the flipped (shut) tiles as bits, tile 1 the most significant", COUNT),
    "Board (Remaining)": ("the source's board string: open tiles as numbers, shut ones as dashes", TEXT),
    "Board Sum": ("the sum of the tiles flipped down so far", SUM), "Roll": ("the roll", "pips"),
    "Max ES": ("expected score with optimal play", SCORE), "Min ES": ("expected score with the worst play", SCORE),
    "Highest Tile ES": ("expected score with the highest-tile rule", SCORE),
    "Strategic Difference": ("Max ES minus Min ES", SCORE),
    "Max Move": ("the optimal moves, ties within the tolerance listed together (as the source writes them)", TEXT),
    "Min Move": ("the worst moves, ties listed together", TEXT),
    "Highest Tile Move": ("the highest-tile moves, ties listed together", TEXT),
    "Highest Tile Pick": ("the one move the highest-tile rule plays", TEXT),
    "Points Lost": ("what the highest-tile pick costs against the optimal move, optimal play afterwards", SCORE),
    "Kind": ("genuine (the pick loses more than the tolerance) or tie listing", TEXT),
    "pick_tiles": ("whether the optimal move shuts as many tiles as the pick, fewer or more", TEXT),
    "keeps_top_tile": ("whether the optimal move leaves the pick's highest tile open", FLAG),
    "scoring": ("how a finished game is scored", TEXT), "Max": ("expected score with optimal play", SCORE),
    "Min": ("expected score with the worst play", SCORE),
    "Highest Tile": ("expected score with the highest-tile rule", SCORE),
    "optimal": ("expected score with optimal play", SCORE),
    "highest_tile": ("expected score with the highest-tile rule", SCORE),
    "worst": ("expected score with the worst play", SCORE),
    "worst_loss_percent": ("what the worst play loses, in per cent of the optimum", PCT),
    "pairs": ("(board, roll) pairs", COUNT),
    "max_differs_from_highest_tile": ("pairs where the max cell differs from the highest-tile cell", COUNT),
    "max_differs_from_traditional_max": ("pairs where the max cell differs from traditional scoring's", COUNT),
    "highest_tile_loss": ("what the highest-tile rule loses per game", SCORE),
    "probability": ("the chance of this outcome", P),
    "score_after": ("the score after the roll, optimal play afterwards", SCORE),
    "contribution": ("the chance of the roll times the score after it", SCORE),
    # chapter 4 (the source's own columns)
    "Open": ("the open tiles written together (the source's code), as a set from 10 tiles on", TEXT),
    "StateNum": ("the state's number in the source's order", TEXT), "TotalRolled": ("the roll", "pips"),
    "Outcome": ("Win, Loss (no legal move) or Undetermined", TEXT),
    "RivalGroup": ("the (Open, TotalRolled) group, numbered with Open compared as text", COUNT),
    "StrategyCount": ("rows in the group, before redundant ones are removed", COUNT),
    "StrategyNum": ("the row's number before redundant rows are removed", COUNT),
    "Removed": ("the tiles shut, written as Open is", TEXT),
    "Redundant": ("whether the source drops this row (a second way to win at once)", FLAG),
    "PWinAfter": ("the chance of winning after this move, optimal play afterwards", P),
    "Optimal": ("whether this move maximises PWinAfter in its rival group", FLAG),
    "Decisive": ("whether the choice in this rival group changes the chance of winning", FLAG),
    "reached": ("whether a game from the full board can reach the state (some rolls and legal moves lead there)", FLAG),
    "OptimalMoves": ("how many moves of this rival group are optimal (two or more: equally good)", COUNT),
    "reason": ("why the set is not a state: won already, or unreachable", TEXT),
    "win_at_most": ("the game is won once the open tiles total this or less", SUM),
    "change": ("the change from the threshold before", PP), "column": ("a column of GameSpace.csv", TEXT),
    "meaning": ("what the column means", TEXT),
    # chapter 5
    "value": ("the least expected sum left open, optimal play", SUM),
    "exact": ("the same as an exact fraction", "fraction"),
    "full_board": ("whether this is the full board", FLAG),
    "state_average": ("the mean of the open tiles", "tile number"), "states": ("how many states", COUNT),
    "rank_correlation": ("rank correlation of the mean open tile and the expected cost (1: always rising)", TEXT),
    "has_correlation": ("whether the panel has two states or more to correlate", FLAG),
    "value_after_optimal": ("the least expected cost after the optimal action", SUM),
    "value_after_largest_tile_action": ("the least expected cost after that action", SUM),
    "as_good": ("whether the action shutting the largest tile is as good as the optimal one (a tie the source's "
                "order breaks)", FLAG),
    "cost": ("the least expected sum left open", SUM),
    "what": ("the source's formula, or the exact value", TEXT), "in_1296ths": ("the chance, in 1296ths", "1/1296"),
    "play": ("the way of playing", TEXT), "more_than_optimal": ("expected sum left beyond optimal play's", SUM),
    "percent_more": ("expected sum left beyond optimal play's, in per cent of it", PCT),
    # chapter 6
    "variant": ("the rule variant's key", TEXT), "variant_name": ("the rule variant, in words", TEXT),
    "allowed": ("the value with one die allowed at 6 or less", BY_OBJECTIVE),
    "forced": ("the value with one die forced at 6 or less", BY_OBJECTIVE),
    "difference": ("the absolute difference of the two", BY_OBJECTIVE),
    "total_loss": ("the policy's whole loss per game", PP),
    "decisions_faced": ("decisions the policy faces: rolls with two legal moves or more, and choices of dice", COUNT),
    "costly_decisions": ("decisions that cost anything", COUNT),
    "share_of_loss_in_top_10": ("the share of the whole loss in the ten costliest decisions", P),
    "costliest_decision": ("the decision that costs the most per game", TEXT),
    "card": ("a strategy card: its lines, in order", TEXT), "lines": ("lines on the card", COUNT),
    "plays_as": ("the simplest card that plays the same moves", TEXT),
    "pairs_playing_differently": ("(board, roll) pairs where the card and the highest-tile rule differ", COUNT),
    "options": ("how many there are to choose from: the numbers of dice, or the legal moves for the roll (0 or 1: "
                "no choice)", COUNT),
    "boards_rolling_other_dice": ("boards in play where the card and the highest-tile rule roll different dice",
                                  COUNT),
    "compared with": ("the move compared with the win-optimal move", TEXT),
    "pairs with a choice": ("(board, roll) pairs with two or more legal moves", COUNT),
    "pairs where it costs the win": ("pairs where that move has a smaller chance of winning", COUNT),
    "largest loss of win probability": ("the largest chance of winning given up", PP),
    "final_sum": ("the sum of the tiles left open at the end", SUM),
    "tied_pairs": ("(board, roll) pairs with two or more equally good moves", COUNT),
    "pairs_with_a_choice": ("(board, roll) pairs with two or more legal moves", COUNT),
    "spread": ("the largest minus the smallest probability over the tie-breaks", PP),
    "dice_name": ("the dice, in words", TEXT),
    "tiles_range": ("the tiles", TEXT),
    # chapter 7
    "seat": ("the seat, in the order of play", COUNT), "players": ("how many players", COUNT),
    "expected_payoff": ("the seat's expected winnings per round", STAKES),
    "p_shut": ("the chance the seat shuts the box", P), "p_split_pot": ("the chance the pot is split", P),
    "mean_payoff": ("the seat's mean winnings over the simulated rounds", STAKES),
    "payoff_se": ("the standard error of that mean", STAKES),
    "fair_shut_pays": ("the bonus for a shut box at which seat 1 breaks even (empty: none found)", STAKES),
    "exactly_even": ("whether seat 1 is exactly even there (else its winnings jump across zero)", FLAG),
    "games_solved": ("games solved to find it", COUNT), "found": ("whether a fair bonus was found", FLAG),
    "below_one": ("whether the fair bonus is below 1 (seat 1 favoured by the pot alone)", FLAG),
    "game": ("the game", TEXT),
    "first_wins": ("the chance the first player wins", P), "tie": ("the chance of a tie", P),
    "second_wins": ("the chance the second player wins", P),
    # the checks
    "claim": ("the claim checked", TEXT), "published": ("the figure as the source printed it", TEXT),
    "computed now": ("the figure the engine computes now", TEXT),
    "allowance": ("how the verdict compared them, from how the source obtained its figure (exact at its precision, "
                  "a simulation's 99.9% interval for its games, a unit test's own tolerance): see the index", TEXT),
    "printed by": ("the write-up that printed the figure (author or site, title, year)", TEXT),
    "check": ("✓ reproduced, corrected by the source or holds, ✗ off or contradicted, – not applicable or cannot "
              "compare, ⚠ outside a 95% interval", TEXT),
    "verdict": ("the check's verdict in words", TEXT),
    # chapter 8: the game in print
    "expected_score": ("the least expected score: the sum left open (Double Shutter: the front row counting double)",
                       SUM),
    "expected_digits": ("the least expected score reading the open tiles as one number (empty: not one row of up to "
                        "12 tiles)", "points (digits read as a number)"),
    "expected_rolls": ("the expected number of rolls of a game, the last one (that finds no move) included", "rolls"),
    "policy_name": ("the way of playing, in words", TEXT),
    "win_loss_percent": ("the chance of winning given up against perfect play, in % of the optimum", PCT),
    "sum_loss_percent": ("the expected sum left above the least, in % of the least", PCT),
    "rolls": ("a number of rolls (the last one included)", "rolls"),
    "p_open": ("the chance that the tile is still open", P),
    "measure": ("what is measured: value (of the objective), exact (the same as a fraction), p_win (the chance of "
                "winning), rolls (expected rolls), beats:, loses-to: or ties:<policy> (the chance of leaving "
                "less, more or the same than that policy's independent game) or playable-pairs (the (board, roll) "
                "pairs that leave some move)", TEXT),
    "computed": ("the figure computed now from the claim's own game", "as measured"),
    "printed": ("the figure printed by the source", "rolls"),
    "excess": ("printed minus exact", "rolls"),
    "gap": ("the excess minus the rule's chance of winning, in size", "rolls"),
    "tile": ("a tile, by its number", "tile number"),
    "tie_break": ("which of equally good moves is played: canonical (the lowest tiles), fewest-tiles, most-tiles or "
                  "random (each with the same chance)", TEXT),
    "printed_by": ("the write-up that printed the figure: author or site, year where known, title", TEXT),
    "measured": ("what the figure measures, in words", TEXT),
    "computed_shown": ("the figure computed now, written as the source printed its figure (its decimals; a "
                       "probability as a percentage)", TEXT),
    "sd": ("the standard deviation of one game's outcome (the objective's value of its final board), for a value "
           "(empty for a chance): what a simulated mean's standard error is made of", "as measured"),
    "corrected_later": ("whether the thesis's second notebook prints the exact value", FLAG),
    "exact_on_the_board": ("the same rule's exact chance of winning when it scores the board in play", P),
    "author": ("who wrote it, as the write-up gives it (or 'author not stated')", TEXT),
    "title": ("its title", TEXT), "year": ("its year, where known", TEXT),
    "published_in": ("where it was published", TEXT), "address": ("its address", TEXT),
    "note": ("the files and commits read", TEXT), "figures": ("how many of its printed figures the chapter checks",
                                                            COUNT),
}

BY_TABLE: dict[tuple[str, str], tuple[str, str]] = {  # (table, column): a meaning particular to that table
    ("tiles-open", "position"): ("the tile's place on the board, from 1 (a Double Shutter's back row after its front "
                                 "row)", COUNT),
    ("tiles-open", "tile"): ("the tile, named as the board names it (a Double Shutter's back tiles b and their value)",
                             TEXT),
    ("example-board", "won"): ("whether the game is already won on the board", FLAG),
    ("example-board", "dice"): ("the numbers of dice the rules let the player roll from the board", TEXT),
    ("example-board", "can_roll_8"): ("whether those dice can show a roll of 8", FLAG),
    ("risk-frontier", "corner"): ("the corner's place on the frontier, from the most wins (1) to the lowest sum",
                                  COUNT),
    ("risk-frontier", "p_win"): ("the chance of winning when the corner's way of playing plays", P),
    ("risk-frontier", "expected_remaining_sum"): ("the expected sum left open when the corner's way of playing plays",
                                                  SUM),
    ("risk-frontier", "w_low"): ("the least weight on the chance of winning (against 1 minus it on minus the sum "
                                 "left) for which the corner's way of playing is optimal", RATIO),
    ("risk-frontier", "w_high"): ("the greatest such weight", RATIO),
    ("risk-frontier", "points_per_pp"): ("along the edge to the next corner: the points of sum left one percentage "
                                         "point more of winning costs (empty at the last corner)", "points per pp"),
    ("frontier-rules-of-thumb", "p_win"): ("the rule of thumb's chance of winning", P),
    ("heuristics", "win_rank"): ("the way of playing's place by its chance of winning, 1 the most; equal chances "
                                 f"share a place (told apart exactly up to {PAGE_EXACT_UP_TO} tiles in all; else to 9 "
                                 "significant digits)", "place"),
    ("heuristics", "expected_remaining_sum"): ("the expected sum left open when the way of playing plays", SUM),
    ("frontier-rules-of-thumb", "expected_remaining_sum"): ("the rule of thumb's expected sum left open", SUM),
    ("frontier-rules-of-thumb", "win_given_up"): ("the chance of winning the frontier reaches at the rule's own "
                                                  "expected sum, minus the rule's", PP),
    ("frontier-rules-of-thumb", "sum_given_up"): ("the rule's expected sum left, minus the least the frontier "
                                                  "reaches at the rule's own chance of winning", SUM),
    ("seat-costs", "play"): ("how the seat plays whatever the scores: an objective played for alone, or a named "
                             "rule of thumb", TEXT),
    ("seat-costs", "expected_payoff"): ("the seat's expected winnings when it plays that way and every other seat "
                                        "plays for the stakes", STAKES),
    ("seat-costs", "stakes_payoff"): ("the seat's expected winnings when it too plays for the stakes", STAKES),
    ("seat-costs", "cost"): ("what playing that way costs the seat: its winnings playing for the stakes minus its "
                             "winnings playing that way", STAKES),
    ("seat-costs", "p_shut"): ("the chance the seat shuts the box (under a threshold: reaches it) playing that way",
                               P),
    ("seats", "p_win"): ("the chance the seat wins the pot, alone or shared, or shuts the box", P),
    ("seats-by-players", "p_win"): ("the chance the seat wins the pot, alone or shared, or shuts the box", P),
    ("simulation", "p_win"): ("the share of simulated rounds the seat won, alone or shared", P),
    ("simulation", "p_shut"): ("the share of simulated rounds the seat shut the box", P),
    ("hand-arithmetic", "p_win"): ("the chance of winning from {4, 5}", P),
    ("claims-computed", "game"): ("the figure's game, its play and what it measures, in words (from the columns "
                                  "beside it)", TEXT),
    ("claims-computed", "play"): ("the rule of thumb or play, its tie-break, and what it plays for, in words", TEXT),
    ("simulated-rule", "printed"): ("the win rate the simulator printed", P),
    ("simulated-rule", "exact"): ("the rule's exact chance of winning", P),
    ("simulated-rule", "standard_error"): ("the standard error of a win rate over that many games, at the exact "
                                           "chance", P),
    ("simulated-rule", "errors_away"): ("how many standard errors lie between the printed and the exact chance",
                                        "standard errors"),
    ("simulated-rule", "side"): ("whether the printed figure is below or above the exact one", TEXT),
    ("hand-arithmetic", "exact"): ("the same as a fraction", "fraction"),
    ("board-values", "value"): ("the least expected sum left open from the board", SUM),
    ("policy-table", "value"): ("the least expected sum left open from the state", SUM),
    ("highest-cost-states", "value"): ("the least expected sum left open from the state", SUM),
    ("one-four-five-eight", "p_win"): ("the chance of winning from the board", P),
    ("strategy-cards", "value"): ("the card's value under the objective (P(win), or an expected sum or count)",
                                  BY_OBJECTIVE),
    ("card-front", "value"): ("the card's value under the objective", BY_OBJECTIVE),
    ("card-front-target", "value"): ("the card's value under the objective", BY_OBJECTIVE),
    ("policy-prices", "value"): ("the policy's value under the objective", BY_OBJECTIVE),
    ("source-000-gap", "value"): ("the policy's chance of winning", P),
    ("variants", "value"): ("the variant's value under the objective and play", BY_OBJECTIVE),
    ("variants", "policy"): ("optimal or worst play", TEXT),
    ("one-die-allowed-or-forced", "policy"): ("optimal or worst play", TEXT),
    ("more-tiles", "dice"): ("how many dice are rolled", "dice"), ("example-board-1-2", "roll"): ("the roll", "pips"),
    ("example-board-1-2", "probability"): ("the chance of the roll", P),
    ("counts-by-moves", "share"): ("this length's share of every winning sequence", P),
    ("counts-for-board", "share"): ("this length's share of every winning sequence", P),
    ("disagreements", "share"): ("pairs where it costs the win, in per cent of pairs with a choice", P),
    ("partition-sets", "on_board"): ("whether every tile of the set is on this board", FLAG),
    ("partition-sets", "tiles"): ("the set of distinct numbers", TEXT),
    ("partitions", "on_board"): ("how many of those sets have all their tiles on this board", COUNT),
    ("solve-times", "tiles"): ("tiles on the board", TILES),
    ("solve-times", "boards"): ("boards solved: 2 to the tiles", COUNT),
    ("source-statements", "boards"): ("boards the statement covers", COUNT),
    ("one-move-boards", "reached"): ("whether a game from the full board can reach the board (some rolls and legal "
                                     "moves lead there)", FLAG),
    ("roll-counts", "p_win"): ("the chance of winning of this way of playing", P),
    ("variants", "no_effect"): ("what of the variant's rules changes nothing on this board, and why (empty: all of "
                                "them count)", TEXT),
    ("variants", "won_at_start"): ("whether the variant's game is won before the first roll (its tiles add up to the "
                                   "threshold or less)", FLAG),
    ("value-and-contrast", "boards"): ("boards the solve values that can arise in a game (on a Double Shutter, no "
                                       "back tile down while its front tile stands)", COUNT),
    ("cards-by-source", "rules"): ("the source's rules, in words", TEXT),
    **{("tie-break-spread", name): (f"P(final sum) with the {name} tie-break", P) for name in TIE_BREAKS},
    **{("tie-breaks", f"value_{name}"): (f"the value with the {name} tie-break", BY_OBJECTIVE)
       for name in TIE_BREAKS},
    ("valid-states", "X1"): ("the lowest open tile", "tile number"),
    # chapter 9: luck and skill (the objective's units: a chance for win, a sum of tiles for remaining-sum)
    ("bounds", "play_name"): ("the way of playing, in words", TEXT),
    ("bounds", "value"): ("the value of the full board: hindsight (every throw known in advance) or a way of "
                          "playing", BY_OBJECTIVE),
    ("bounds", "skill_share"): ("the share of the distance from random play to the hindsight value this way of "
                                "playing covers", PCT),
    ("game-luck", "luck"): ("the game's total luck: how much its rolls moved the value of perfect play, added up",
                            BY_OBJECTIVE),
    ("game-luck", "loss"): ("the game's total loss: what its decisions (dice and moves) cost against perfect play, "
                            "added up", BY_OBJECTIVE),
    ("game-luck", "outcome"): ("the game's outcome: 1 when the box was shut (else 0), or the sum left open",
                               BY_OBJECTIVE),
    ("example-game", "played"): ("the tiles the player shut (- where no move was legal)", MOVE),
    ("example-game", "best"): ("the best move or moves for the roll, equally good ones joined by ;", MOVE),
    ("example-game", "luck"): ("how much the roll moved the value before any move", BY_OBJECTIVE),
    ("example-game", "loss"): ("what the turn's decisions (dice and move) cost against the best", BY_OBJECTIVE),
    ("example-game", "grade"): ("best, good, inaccuracy, mistake or blunder, by the loss", TEXT),
    ("example-game", "value_after"): ("the value of perfect play after the move (the outcome after the last turn)",
                                      BY_OBJECTIVE),
    ("luck-summary", "play_name"): ("the way of playing, in words", TEXT),
    ("luck-summary", "mean_luck"): ("the mean total luck of a game (zero, but for chance)", BY_OBJECTIVE),
    ("luck-summary", "luck_se"): ("the standard error of the mean luck", BY_OBJECTIVE),
    ("luck-summary", "mean_loss"): ("the mean total loss of a game", BY_OBJECTIVE),
    ("luck-summary", "loss_se"): ("the standard error of the mean loss", BY_OBJECTIVE),
    ("luck-summary", "exact_loss"): ("the exact expected loss: perfect play's value less this way's", BY_OBJECTIVE),
    ("luck-summary", "sd_luck"): ("the standard deviation of a game's total luck", BY_OBJECTIVE),
    ("luck-summary", "sd_loss"): ("the standard deviation of a game's total loss", BY_OBJECTIVE),
    ("luck-summary", "sd_outcome"): ("the standard deviation of a game's outcome", BY_OBJECTIVE),
    ("luck-summary", "luck_r2"): ("the share of the outcome's variance a game's luck explains (the squared "
                                  "correlation; empty where the outcome does not vary)", P),
    ("luck-summary", "identity_error"): ("the largest gap between start + luck - loss and the outcome over the games "
                                         "(rounding only)", BY_OBJECTIVE),
}

PATTERNS: tuple[tuple[str, tuple[str, str]], ...] = (
    (r"X\d+", ("an open tile before the roll, in increasing order; 999 fills the unused columns", "tile number")),
    (r"F\d+", ("an open tile after the move, in increasing order; 999 fills the unused columns", "tile number")),
    (r"P\d+", ("a tile shut by the move, lowest first; empty when no move is legal", "tile number")),
    (r".+_minus_canonical", ("the absolute difference from the canonical tie-break's probability", PP)),
    (r".+ seconds", ("median seconds of the solve, measured by make bench", "seconds")),
    (r".+ peak GB", ("peak memory of the whole process", "GB")),
)


def meaning(table: str, column: str) -> tuple[str, str]:
    """``(description, unit)`` of ``column`` in ``table``; :class:`KeyError` when nothing describes it."""
    if (table, column) in BY_TABLE:
        return BY_TABLE[table, column]
    if column in COLUMNS:
        return COLUMNS[column]
    for pattern, described in PATTERNS:
        if re.fullmatch(pattern, column):
            return described
    raise KeyError(f"table {table!r}: column {column!r} has no description in stb_core/report/dictionary.py")


def field_type(series: pd.Series) -> str:
    """The Table Schema type of a column as written to CSV."""
    if pd.api.types.is_bool_dtype(series):
        return "boolean"
    if pd.api.types.is_integer_dtype(series):
        return "integer"
    if pd.api.types.is_float_dtype(series):
        return "number"
    values = [v for v in series if not (v is None or (isinstance(v, float) and pd.isna(v)))]
    if values and all(isinstance(v, bool) for v in values):
        return "boolean"
    if values and all(isinstance(v, int) and not isinstance(v, bool) for v in values):
        return "integer"
    if values and all(isinstance(v, int | float) and not isinstance(v, bool) for v in values):
        return "number"
    return "string"


def schema_of(table: str, frame: pd.DataFrame) -> dict:
    """The Table Schema of ``frame`` exported as ``<table>.csv``: every column with its type, description and unit."""
    fields = []
    for column in frame.columns:
        description, unit = meaning(table, str(column))
        field = {"name": str(column), "type": field_type(frame[column]), "description": description}
        if unit:
            field["unit"] = unit
        fields.append(field)
    return {"fields": fields}


def entitle(schema: dict, label: str, caption: str, headers: dict | None) -> None:
    """Give a described table the label and caption it is shown with on its page, and each field the header it is
    shown under (``headers``: column -> header, as ``page.table`` takes them)."""
    if label:
        schema["title"] = label
    schema["description"] = caption
    for field in schema["fields"]:
        if headers is None or field["name"] in headers:  # None: shown under its own name
            field["title"] = field["name"] if headers is None else headers[field["name"]]


def data_package(run: str, title: str, tables: dict[str, dict], citation: str) -> str:
    """``datapackage.json`` of a run: one tabular resource per CSV file, with its schema (``tables`` by name), and the
    label and caption the page shows it with."""
    package = {
        "profile": "tabular-data-package",
        "name": re.sub(r"[^a-z0-9._-]+", "-", run.lower()).strip("-"),
        "title": title,
        "description": "Tables of one chapter of 'Shut the Box, solved exactly', computed exactly from the rules.",
        "licenses": [{"name": "CC-BY-4.0", "title": "Creative Commons Attribution 4.0",
                      "path": "https://creativecommons.org/licenses/by/4.0/"}],
        "sources": [{"title": citation}],
        "resources": [{"name": re.sub(r"[^a-z0-9._-]+", "-", name.lower()), "path": f"{name}.csv",
                       **{key: schema[key] for key in ("title", "description") if key in schema},
                       "profile": "tabular-data-resource", "format": "csv", "mediatype": "text/csv",
                       "encoding": "utf-8", "schema": {"fields": schema["fields"]}}
                      for name, schema in tables.items()],
    }
    return json.dumps(package, indent=1, ensure_ascii=False) + "\n"


# -- the committed reference data: data/published (every printed figure) and data/bench (make bench) ---------------
REFERENCE: dict[str, dict[str, tuple[str, str]]] = {
    "published": {
        "key": ("the claim's key, read by the chapter that checks it (with the file's name: unique)", TEXT),
        "claim_id": ("the claim this figure belongs to: a figure printed several ways is one claim", TEXT),
        "role": ("what the figure is within its claim (empty: the claim itself)", TEXT),
        "kind": ("figure (a number, set or list the source printed) or statement (a sentence it asserts)", TEXT),
        "claim": ("the claim, in words", TEXT),
        "published": ("what the source printed, as printed (a statement: yes)", TEXT),
        "unit": ("how the printed number reads: percent, probability (a fraction of 1) or empty (as written)",
                 TEXT),
        "method": ("how the source obtained it: exact, approximate, simulated or test", TEXT),
        "games": ("how many games the source simulated (empty: not said, or not simulated)", COUNT),
        "delta": ("a unit test's own tolerance, in the figure's unit", TEXT),
        "truncated": ("True when the source cuts digits off rather than rounding", FLAG),
        "corrected": ("the figure the source printed later, where it corrected itself", TEXT),
        "corrected_citation": ("where the later figure is printed", TEXT),
        "same_as": ("the one home of a figure a second page also shows: <file>:<key>", TEXT),
        "expected": ("holds or fails: what this report finds, checked at every build", TEXT),
        "source": ("the write-up that printed it: a key of sources.csv or references.csv", TEXT),
        "citation": ("where in the source it is printed", TEXT),
        "tiles": ("the game the figure is about: tiles 1 to this number", TILES),
        "dice": ("the game the figure is about: dice rolled", "dice"),
        "sides": ("the game the figure is about: sides of each die", "sides"),
        "one_die": ("the game's one-die rule: never, high-shut or sum-le-6", TEXT),
        "one_die_forced": ("True when one die must be rolled once the rule allows it", FLAG),
        "max_per_move": ("the most tiles one roll may shut (empty: any number)", TILES),
        "moves": ("what a roll may shut: any-sum or die-or-sum (Thai style)", TEXT),
        "layout": ("row or double-shutter", TEXT),
        "objective": ("what the figure values: win, remaining-sum, digits or flipped-count", TEXT),
        "policy": ("how the figure's moves are chosen: optimal, or a named rule of thumb", TEXT),
        "tie_break": ("which of equally good moves that play chooses", TEXT),
        "measure": ("what the figure is: value, exact, p_win, sd, expected_rolls and the like", TEXT),
        "board": ("the open tiles the figure is about (empty: the full board)", BOARD),
        "author": ("who wrote it, as the write-up says (or 'not stated')", TEXT),
        "title": ("its title", TEXT), "year": ("when it was written, as far as it says", TEXT),
        "date": ("when it was written, as far as it says", TEXT),
        "published_in": ("where it appeared", TEXT), "address": ("its address (or 'not known')", TEXT),
        "note": ("what was read: files and commits", TEXT), "rules": ("the game it analyses, in words", TEXT),
        "bibkey": ("its key in the write-up kit's references.bib", TEXT),
    },
    "bench": {
        "tiles": ("tiles on the board", TILES), "sweep": ("which sweep: numpy, compiled or the plain loop", TEXT),
        "median_seconds": ("median seconds of the solve over the repeats, measured by make bench", "seconds"),
        "peak_memory_gb": ("peak memory of the whole process", "GB"),
        "processes": ("worker processes", COUNT), "objective": ("the objective solved", TEXT),
        "measured": ("the date of the measurement", TEXT), "machine": ("the machine it ran on", TEXT),
        "command": ("the stb command, as a user types it", TEXT),
        "estimated_seconds": ("what the command estimated before it started, plus the process's start-up",
                              "seconds"),
        "measured_seconds": ("what the whole command took, start-up and output included", "seconds"),
        "time_ratio": ("measured seconds over estimated seconds", RATIO),
        "estimated_gb": ("the peak memory the command estimated, plus the process's start-up", "GB"),
        "memory_ratio": ("peak memory over estimated memory", RATIO),
        "within": ("whether the estimate held: time within 2x either way, memory at most 1.5x", FLAG),
    },
}
REFERENCE_TITLES = {
    "published": ("Every figure and statement the sources printed, with its citation",
                  "Reference data of 'Shut the Box, solved exactly': what the five sources and the thirteen write-ups "
                  "of chapter 8 printed, how they obtained it, and where; each chapter judges these rows against the "
                  "exact values (the one standard: stb_core.sources.verdicts). Figures quoted for comparison."),
    "bench": ("Solve times of the engine and what its commands announce, measured by make bench",
              "Median seconds and peak memory of full-board solves (solve-times.csv), and each command's estimate "
              "against what it then took (estimates.csv), as measured on the machine named in each row."),
}


def reference_package(folder) -> str:
    """``datapackage.json`` of a committed reference folder (``data/published`` or ``data/bench``): every CSV in
    it, each column described from :data:`REFERENCE` (a column nothing describes raises :class:`KeyError`)."""
    from pathlib import Path

    folder = Path(folder)
    described = REFERENCE[folder.name]
    tables = {}
    for path in sorted(folder.glob("*.csv")):
        frame = pd.read_csv(path, keep_default_na=False, dtype=str)
        fields = []
        for column in frame.columns:
            if column not in described:
                raise KeyError(f"{path}: column {column!r} has no description in stb_core/report/dictionary.py")
            description, unit = described[column]
            fields.append({"name": column, "type": _text_type(frame[column]), "description": description,
                           **({"unit": unit} if unit else {})})
        tables[path.stem] = {"fields": fields}
    title, description = REFERENCE_TITLES[folder.name]
    package = json.loads(data_package(folder.name, title, tables, "Shut the Box, solved exactly"))
    package["description"] = description
    if folder.name == "published":  # quoted for comparison: not the report's to license (LICENSE-DATA.md)
        package["licenses"] = [{"name": "other-at", "title": "Figures quoted for comparison; they remain their "
                                                             "authors' (see LICENSE-DATA.md)"}]
        package["sources"] = [{"title": "the write-ups listed in sources.csv and references.csv"}]
    return json.dumps(package, indent=1, ensure_ascii=False) + "\n"


def _text_type(column: pd.Series) -> str:
    """The Table Schema type of a column read as text: integer, number or boolean when every non-empty value is one
    (an empty cell is missing), else string."""
    values = [v for v in column if v != ""]
    for kind, pattern in (("integer", r"-?\d+"), ("number", r"-?\d+(\.\d+)?([eE]-?\d+)?"), ("boolean", r"True|False")):
        if values and all(re.fullmatch(pattern, v) for v in values):
            return kind
    return "string"
