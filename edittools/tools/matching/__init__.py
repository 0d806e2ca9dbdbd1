"""Finding text in a file's text: exactly first, then with stated tolerances.

`locate` finds an edit's `old_string` (`Match`: its places, their replacements, the tier that
found them); the line view (`Lines`), the line tiers (`LINE_TIERS`, `Tier`), the mapping of
lines found with tolerance (`LineMap`, `Unmappable`) and the description of a miss
(`describe_miss`) are shared with the patches, which place their hunks with the same tiers.
"""

from edittools.tools.matching._closest import describe_miss
from edittools.tools.matching._linemap import LineMap, Unmappable
from edittools.tools.matching._matching import TIERS, Match, locate
from edittools.tools.matching._textlines import LINE_TIERS, Lines, Tier, fold_and_strip, identity

__all__ = [
    "LINE_TIERS",
    "TIERS",
    "LineMap",
    "Lines",
    "Match",
    "Tier",
    "Unmappable",
    "describe_miss",
    "fold_and_strip",
    "identity",
    "locate",
]
