"""Patch cases shared by the patch parser's tests and the apply_patch tool's: the Codex suite
(before, patch, after, tiers) and unified diffs checked against git apply and patch
(before, patch)."""

from __future__ import annotations

# --- the Codex suite: (before, patch, after, tiers) -------------------------------------------

CODEX_CASES = {
    "add": (
        {},
        "*** Begin Patch\n*** Add File: pkg/new.py\n+import os\n+\n+print(os.sep)\n*** End Patch\n",
        {"pkg/new.py": "import os\n\nprint(os.sep)\n"},
        {"pkg/new.py": "exact"},
    ),
    "update_several_chunks": (
        {"a.py": "def one():\n    return 1\n\n\ndef two():\n    return 2\n\n\nVALUE = 3\n"},
        "*** Begin Patch\n*** Update File: a.py\n@@ def one():\n-    return 1\n+    return 10\n"
        "@@ def two():\n-    return 2\n+    return 20\n+\n+\n+def three():\n+    return 30\n"
        "@@\n \n-VALUE = 3\n+VALUE = 33\n*** End Patch\n",
        {
            "a.py": "def one():\n    return 10\n\n\ndef two():\n    return 20\n\n\n"
            "def three():\n    return 30\n\n\nVALUE = 33\n"
        },
        {"a.py": "exact"},
    ),
    "context_header_picks_the_second_of_two_same_blocks": (
        {"b.py": "def f():\n    x = 1\n\ndef g():\n    x = 1\n"},
        "*** Begin Patch\n*** Update File: b.py\n@@ def g():\n-    x = 1\n+    x = 2\n*** End Patch",
        {"b.py": "def f():\n    x = 1\n\ndef g():\n    x = 2\n"},
        {"b.py": "exact"},
    ),
    "delete": (
        {"gone.txt": "bye\n", "kept.txt": "hi\n"},
        "*** Begin Patch\n*** Delete File: gone.txt\n*** End Patch\n",
        {"kept.txt": "hi\n"},
        {"gone.txt": "exact"},
    ),
    "move_with_change": (
        {"old/name.txt": "alpha\nbeta\n"},
        "*** Begin Patch\n*** Update File: old/name.txt\n*** Move to: new/name.txt\n@@\n alpha\n"
        "-beta\n+gamma\n*** End Patch\n",
        {"new/name.txt": "alpha\ngamma\n"},
        {"old/name.txt": "exact"},
    ),
    "move_only": (
        {"a.txt": "x\n"},
        "*** Begin Patch\n*** Update File: a.txt\n*** Move to: b.txt\n*** End Patch\n",
        {"b.txt": "x\n"},
        {"a.txt": "exact"},
    ),
    "end_of_file_marker_picks_the_last_occurrence": (
        {"c.txt": "end\nmiddle\nend\n"},
        "*** Begin Patch\n*** Update File: c.txt\n@@\n-end\n+END\n*** End of File\n*** End Patch\n",
        {"c.txt": "end\nmiddle\nEND\n"},
        {"c.txt": "exact"},
    ),
    "whitespace_padded_markers_and_no_final_newline": (
        {"d.txt": "one\ntwo\n"},
        "  *** Begin Patch  \n\t*** Update File:   d.txt  \n@@\n one\n-two\n+2\n  *** End Patch",
        {"d.txt": "one\n2\n"},
        {"d.txt": "exact"},
    ),
    "crlf_file_keeps_crlf_and_new_lines_take_it": (
        {"w.txt": "a\r\nb\r\nc\r\n"},
        "*** Begin Patch\n*** Update File: w.txt\n@@\n a\n-b\n+B1\n+B2\n c\n*** End Patch\n",
        {"w.txt": "a\r\nB1\r\nB2\r\nc\r\n"},
        {"w.txt": "exact"},
    ),
    "mixed_endings_keep_each_untouched_line": (
        {"m.txt": "a\r\nb\nc\r\nd\r\n"},
        "*** Begin Patch\n*** Update File: m.txt\n@@\n b\n-c\n+C\n*** End Patch\n",
        {"m.txt": "a\r\nb\nC\r\nd\r\n"},
        {"m.txt": "exact"},
    ),
    "missing_final_newline_is_kept": (
        {"n.txt": "a\nb"},
        "*** Begin Patch\n*** Update File: n.txt\n@@\n a\n-b\n+c\n*** End Patch\n",
        {"n.txt": "a\nc"},
        {"n.txt": "exact"},
    ),
    "append_at_end_of_file_without_newline": (
        {"n.txt": "a"},
        "*** Begin Patch\n*** Update File: n.txt\n@@\n a\n+b\n*** End Patch\n",
        {"n.txt": "a\nb"},
        {"n.txt": "exact"},
    ),
    "trailing_whitespace_tolerated": (
        {"t.txt": "keep   \nold  \n"},
        "*** Begin Patch\n*** Update File: t.txt\n@@\n keep\n-old\n+new\n*** End Patch\n",
        {"t.txt": "keep   \nnew\n"},
        {"t.txt": "trailing_whitespace"},
    ),
    "indentation_tolerated_and_context_lines_keep_file_bytes": (
        {"i.py": "if x:\n\tdo()\n\tmore()\n"},
        "*** Begin Patch\n*** Update File: i.py\n@@\n     do()\n-    more()\n+\tless()\n"
        "*** End Patch\n",
        {"i.py": "if x:\n\tdo()\n\tless()\n"},
        {"i.py": "indentation"},
    ),
    "unicode_punctuation_tolerated": (
        {"u.txt": "say “hi” — now\n"},
        '*** Begin Patch\n*** Update File: u.txt\n@@\n-say "hi" - now\n+say hi\n*** End Patch\n',
        {"u.txt": "say hi\n"},
        {"u.txt": "unicode_punctuation"},
    ),
    "unified_header_in_a_codex_patch_is_ignored": (
        {"h.txt": "a\nb\n"},
        "*** Begin Patch\n*** Update File: h.txt\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n*** End Patch\n",
        {"h.txt": "a\nc\n"},
        {"h.txt": "exact"},
    ),
    "empty_line_in_chunk_is_empty_context": (
        {"e.txt": "a\n\nb\n"},
        "*** Begin Patch\n*** Update File: e.txt\n@@\n a\n\n-b\n+c\n*** End Patch\n",
        {"e.txt": "a\n\nc\n"},
        {"e.txt": "exact"},
    ),
}


# --- unified diffs: (before, patch), applied by git apply and patch as the oracles ---------

UNIFIED_CASES = {
    "crlf_file": (
        {"w.txt": b"a\r\nb\r\nc\r\n"},
        "diff --git a/w.txt b/w.txt\n--- a/w.txt\n+++ b/w.txt\n@@ -1,3 +1,3 @@\n a\r\n-b\r\n+B\r\n"
        " c\r\n",
    ),
    "remove_final_newline": (
        {"n.txt": b"a\nb\n"},
        "--- a/n.txt\n+++ b/n.txt\n@@ -1,2 +1,2 @@\n a\n-b\n+b\n\\ No newline at end of file\n",
    ),
    "add_final_newline": (
        {"n.txt": b"a\nb"},
        "--- a/n.txt\n+++ b/n.txt\n@@ -1,2 +1,3 @@\n a\n-b\n\\ No newline at end of file\n+b\n+c\n",
    ),
    "omitted_counts_and_two_files": (
        {"a.txt": b"x\n", "b.txt": b"1\n2\n3\n"},
        "--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-x\n+y\n"
        "--- a/b.txt\n+++ b/b.txt\n@@ -2,0 +3 @@\n+2.5\n",
    ),
    "create_and_delete": (
        {"old.txt": b"bye\nnow\n"},
        "diff --git a/new.txt b/new.txt\nnew file mode 100644\n--- /dev/null\n+++ b/new.txt\n"
        "@@ -0,0 +1,2 @@\n+hi\n+there\n\\ No newline at end of file\n"
        "diff --git a/old.txt b/old.txt\ndeleted file mode 100644\n--- a/old.txt\n+++ /dev/null\n"
        "@@ -1,2 +0,0 @@\n-bye\n-now\n",
    ),
    "moved_hunk_found_by_offset": (
        {"o.txt": b"".join(b"line %d\n" % i for i in range(1, 30))},
        "--- a/o.txt\n+++ b/o.txt\n@@ -3,3 +3,3 @@\n line 20\n-line 21\n+LINE 21\n line 22\n",
    ),
    "two_hunks_in_one_file": (
        {"t.txt": b"".join(b"%d\n" % i for i in range(1, 21))},
        "--- a/t.txt\n+++ b/t.txt\n@@ -2,3 +2,4 @@\n 2\n 3\n+3.5\n 4\n@@ -15,3 +16,2 @@\n 15\n-16\n 17\n",
    ),
}
