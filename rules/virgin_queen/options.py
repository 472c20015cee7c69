"""The Virgin Queen campaign options: the Decisions of shared/rules/virgin-queen.md that
leave a real choice, default first.

Decisions 3 to 7 are not options: 3 corrects a slip of the seed; 4 and 6 follow its
words ("Catholic at the start of this step", "adjacent to the target"); 5 is the only
reading of "do not place excess markers"; and 7 follows step 3, which displaces the other
Catholic powers' units, so they cannot have been hit or have blocked the revolt.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy

from rules.engine import OptionSpec

OPTIONS = (
    OptionSpec(
        "unrest_cancel",
        gettext_lazy("Lowering 6s to 5 to cancel unrest (VQ-1 step 3)"),
        (
            ("each_six", gettext_lazy("Each 6 lowered to 5 cancels one unrest marker")),
            ("one_per_action", gettext_lazy("At most one unrest marker is cancelled per action")),
        ),
        decision="1",
        help=gettext_lazy("The automatic 6 of an event may be lowered too."),
    ),
    OptionSpec(
        "displacement",
        gettext_lazy("Displaced units and leaders (VQ-2 steps 3 and 4)"),
        (
            (
                "owner",
                gettext_lazy(
                    "Their owner chooses among the nearest legal spaces; the GM may answer"
                ),
            ),
            ("automatic", gettext_lazy("They go to the first of the nearest legal spaces by name")),
        ),
        decision="2",
        help=gettext_lazy(
            "Nearest legal spaces: fortified spaces the owner controls, or its capital."
        ),
    ),
)
