"""A small valid file per language, a harmless edit of it and an edit that breaks it."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Sample:
    """`text` parses; replacing `harmless` keeps it parsing; replacing `breaking` does not."""

    name: str
    text: str
    harmless: tuple[str, str]
    breaking: tuple[str, str]


SAMPLES = [
    Sample("app.py", "def area(w, h):\n    if w > 0:\n        return w * h\n    return 0\n",
           ("w * h", "h * w"), ("if w > 0:", "if w > 0")),
    Sample("app.js", "function area(w, h) {\n  return [w, h].reduce((a, b) => a * b);\n}\n",
           ("a * b", "b * a"), ("a * b);\n}", "a * b;\n}")),
    Sample("App.jsx", "const A = () => <div className=\"x\">{1 + 2}</div>;\n",
           ("1 + 2", "2 + 1"), ("{1 + 2}", "{1 + 2")),
    Sample("app.ts", "function area(w: number, h: number): number {\n  return w * h;\n}\n",
           ("w * h", "h * w"), ("h: number)", "h: number")),
    Sample("App.tsx", "const A = (p: {n: number}) => <b>{p.n}</b>;\n",
           ("p.n", "p.n + 1"), ("{p.n}", "{p.n")),
    Sample("conf.json", "{\n  \"name\": \"x\",\n  \"list\": [1, 2, 3]\n}\n",
           ("[1, 2, 3]", "[3, 2, 1]"), ("[1, 2, 3]", "[1, 2, 3")),
    Sample("conf.yaml", "name: x\nlist:\n  - 1\n  - 2\n",
           ("name: x", "name: y"), ("name: x", "name: \"x")),
    Sample("conf.toml", "[tool]\nname = \"x\"\nlist = [1, 2]\n",
           ("\"x\"", "\"y\""), ("[tool]", "[tool")),
    Sample("page.html", "<!DOCTYPE html>\n<html><body><p class=\"a\">Hi</p></body></html>\n",
           ("Hi", "Hello"), ("<p class=\"a\">", "<p class=\"a>")),
    Sample("site.css", "body {\n  color: red;\n}\na { margin: 0 }\n",
           ("red", "blue"), ("color: red;\n}", "color: red;\n")),
    Sample("main.go", "package main\n\nfunc area(w, h int) int {\n\treturn w * h\n}\n",
           ("w * h", "h * w"), ("\treturn w * h\n}", "\treturn w * h\n")),
    Sample("lib.rs", "fn area(w: u32, h: u32) -> u32 {\n    w * h\n}\n",
           ("w * h", "h * w"), ("(w: u32, h: u32)", "(w: u32, h: u32")),
    Sample("area.c", "int area(int w, int h) {\n    return w * h;\n}\n",
           ("w * h", "h * w"), ("return w * h;", "return w * h")),
    Sample("area.h", "#ifndef AREA_H\n#define AREA_H\nint area(int w, int h);\n#endif\n",
           ("int h", "int height"), ("int area(int w, int h);", "int area(int w, int h;")),
    Sample("area.cpp", "#include <vector>\nint area(std::vector<int> v) {\n    return v[0] * v[1];\n}\n",
           ("v[0] * v[1]", "v[1] * v[0]"), ("v[0] * v[1]", "v[0 * v[1]")),
    Sample("Area.java", "class Area {\n    int area(int w, int h) {\n        return w * h;\n    }\n}\n",
           ("w * h", "h * w"), ("return w * h;", "return w * h")),
    Sample("area.rb", "def area(w, h)\n  [w, h].reduce(:*)\nend\n",
           ("[w, h]", "[h, w]"), ("[w, h]", "[w, h")),
    Sample("run.sh", "#!/bin/sh\nif [ -n \"$1\" ]; then\n  echo \"$1\"\nfi\n",
           ("echo", "printf '%s\\n'"), ("fi\n", "\n")),
    Sample("README.md", "# Title\n\nSome *text*.\n\n```python\nx = 1\n```\n",
           ("Some", "More"), ("```python", "```python")),  # Markdown: nothing breaks it
]  # fmt: skip

UNBREAKABLE = {"README.md"}
"""Languages whose grammar accepts any text: a breaking edit is never flagged."""
