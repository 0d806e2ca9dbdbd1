"""Hostile tool results: every text field carries markup, script and link attempts."""

from __future__ import annotations

from render_samples import changeset_result, code_result, diff_result, error_result

from edittools.artifacts import (
    DiffPayload,
    DiffStats,
    Hunk,
    StreamEvent,
    TextArtifact,
    TextPayload,
    ToolResult,
)

# Each would change the title or add an element with id "pwned" if it ever ran.
ATTACKS = [
    "<script>document.title='pwned'</script>",
    "<img src=x onerror=\"document.body.appendChild(document.createElement('p')).id='pwned'\">",
    "</style><script>document.title='pwned'</script><style>",
    '"><svg onload="document.title=\'pwned\'">',
    "javascript:document.title='pwned'",
    "<a href=\"javascript:document.title='pwned'\" id=pwned>x</a>",
    "</pre></td></tr></table><iframe src=\"javascript:parent.document.title='pwned'\"></iframe>",
    '<!-- ]]> --><base href="https://attacker.invalid/">',
    '<meta http-equiv="refresh" content="0;url=javascript:document.title=\'pwned\'">',
    "'; document.title='pwned'; '",
]
HOSTILE = " ".join(ATTACKS)


def hostile_events() -> list[ToolResult | StreamEvent]:
    """One result of every kind the report shows, with the attacks in each text field."""
    diff = DiffPayload(
        path=f"dir/{ATTACKS[0]}{ATTACKS[4]}.py",
        old_path=ATTACKS[3],
        operation="rename",
        match=ATTACKS[2],
        hunks=[
            Hunk(
                old_start=1,
                old_lines=len(ATTACKS),
                new_start=1,
                new_lines=len(ATTACKS),
                lines=[f"-{attack}" for attack in ATTACKS] + [f"+{attack}" for attack in ATTACKS],
            )
        ],
        stats=DiffStats(added=len(ATTACKS), removed=len(ATTACKS)),
    )
    unified_only = DiffPayload(
        path=ATTACKS[5],
        unified=f"--- a/{ATTACKS[1]}\n+++ b/x\n@@ -1 +1 @@\n-{ATTACKS[6]}\n+{ATTACKS[7]}\n",
        stats=DiffStats(added=1, removed=1),
    )
    return [
        diff_result(diff),
        StreamEvent(
            id=ATTACKS[3],
            name=ATTACKS[0],
            value=HOSTILE,
            artifact=diff_result(unified_only).artifact,
        ),
        changeset_result(unified_only, diff),
        error_result(ATTACKS[1], HOSTILE),
        code_result(HOSTILE, filename=ATTACKS[2], lang=ATTACKS[5]),
        ToolResult(
            value=HOSTILE,
            artifact=TextArtifact(title=ATTACKS[0], payload=TextPayload(text=HOSTILE)),
        ),
        ToolResult(value=HOSTILE),
    ]
