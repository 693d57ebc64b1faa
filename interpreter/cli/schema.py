"""`lotr-rules schema [KIND]`: the JSON Schema of a kind of rule file, or the effect language's
primitives (`dsl`)."""
from __future__ import annotations

import json

from .common import UsageError


def run(args) -> int:
    from ..loading.loader import KINDS
    from ..loading.validators import schema

    kind = args.kind
    if kind == "dsl":
        from ..dsl.signatures import SIGNATURES

        for name, p in sorted(SIGNATURES.items()):
            params = ", ".join(("*" if v else "") + f"{n}: {t}" + ("?" if d else "") for n, t, d, _, v in p.params)
            ret = f" -> {p.returns}" if p.kind == "fn" else ""
            print(f"{p.kind:4} {name}({params}){ret}\n       {p.doc}")
        return 0
    if kind is None:
        print("kinds: " + ", ".join([*KINDS, "common", "dsl"]))
        print("usage: lotr-rules schema KIND")
        return 0
    if kind not in (*KINDS, "common"):
        raise UsageError(f"unknown kind {kind!r}; kinds: {', '.join([*KINDS, 'common', 'dsl'])}")
    print(json.dumps(schema(kind), indent=2))
    return 0
