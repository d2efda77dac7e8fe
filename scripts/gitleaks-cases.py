#!/usr/bin/env python3
"""Extracts gitleaks' rule test cases into one JSON file for the secret-scan corpus test.

gitleaks' rule generators (cmd/generate/config/rules/*.go) each end with
`utils.Validate(r, tps, fps)` (or `ValidateWithPaths` with path -> text maps): the true and
false positives gitleaks itself checks its default rules against. Many cases are built at
generation time: `utils.GenerateSampleSecrets("id", secrets.NewSecret(utils.Hex("32")))` writes
one random secret in two dozen assignment styles. This script evaluates that small part of Go
(string literals, `+`, slices, maps, `append`, `fmt.Sprintf`, `strings.Repeat` and the
generator helpers) and draws random strings from the regexes with a fixed seed per rule, so the
corpus is the same on every run. An expression it cannot evaluate loses those cases; the count
is printed and stored, never hidden.

Each case's text is stored base64-encoded (`text_b64`): the cases are real-looking secrets,
and this repository's own secret scans must not trip on its test data.

Usage: scripts/gitleaks-cases.py GITLEAKS_GIT_DIR [REV] > tests/fixtures/secrets/gitleaks-cases.json
(GITLEAKS_GIT_DIR: a clone or bare mirror of github.com/gitleaks/gitleaks.)
"""

import base64

import json
import random
import re
import subprocess
import sys

try:
    import re._parser as sre_parse  # Python 3.11+
    import re._constants as sre_c
except ImportError:  # pragma: no cover
    import sre_parse
    import sre_constants as sre_c

RULES_DIR = "cmd/generate/config/rules/"
GENERATE_GO = "cmd/generate/config/utils/generate.go"


def git(git_dir, *args):
    return subprocess.run(
        ["git", "--git-dir", git_dir, *args], check=True, capture_output=True, text=True
    ).stdout


# --- Go tokens ---------------------------------------------------------------------------

TOKEN = re.compile(
    r"""
    (?P<ws>\s+)
  | (?P<comment>//[^\n]*|/\*.*?\*/)
  | (?P<raw>`[^`]*`)
  | (?P<str>"(?:[^"\\\n]|\\.)*")
  | (?P<rune>'(?:[^'\\\n]|\\.)*')
  | (?P<num>\d+)
  | (?P<ident>[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)
  | (?P<op>\.\.\.|:=|==|!=|&&|\|\||[-+*/%(){}\[\],;:=<>!&|.^])
    """,
    re.S | re.X,
)


def go_unquote(text):
    body = text[1:-1]
    out = []
    i = 0
    simple = {"n": "\n", "t": "\t", "r": "\r", '"': '"', "\\": "\\", "'": "'", "a": "\a",
              "b": "\b", "f": "\f", "v": "\v"}
    while i < len(body):
        c = body[i]
        if c != "\\":
            out.append(c)
            i += 1
            continue
        n = body[i + 1]
        if n in simple:
            out.append(simple[n])
            i += 2
        elif n == "x":
            out.append(chr(int(body[i + 2 : i + 4], 16)))
            i += 4
        elif n == "u":
            out.append(chr(int(body[i + 2 : i + 6], 16)))
            i += 6
        elif n == "U":
            out.append(chr(int(body[i + 2 : i + 10], 16)))
            i += 10
        elif n in "01234567":
            out.append(chr(int(body[i + 1 : i + 4], 8)))
            i += 4
        else:
            raise ValueError(f"escape \\{n}")
    return "".join(out)


def tokenize(src):
    tokens = []
    for m in TOKEN.finditer(src):
        kind = m.lastgroup
        if kind in ("ws", "comment"):
            continue
        value = m.group()
        if kind == "raw":
            tokens.append(("str", value[1:-1]))
        elif kind == "str":
            tokens.append(("str", go_unquote(value)))
        else:
            tokens.append((kind, value))
    return tokens


# --- random strings from a regex (what gitleaks' secrets.NewSecret does) ------------------

CATEGORIES = {
    sre_c.CATEGORY_DIGIT: "0123456789",
    sre_c.CATEGORY_WORD: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_",
    sre_c.CATEGORY_SPACE: " ",
}
PRINTABLE = [chr(c) for c in range(33, 127)]


def reg_generate(pattern, rng):
    pattern = pattern.replace("(?i)", "")
    tree = sre_parse.parse(pattern)
    return "".join(gen_seq(tree, rng))


def class_chars(items):
    chars = []
    negate = False
    for op, av in items:
        if op == sre_c.NEGATE:
            negate = True
        elif op == sre_c.LITERAL:
            chars.append(chr(av))
        elif op == sre_c.RANGE:
            chars.extend(chr(c) for c in range(av[0], av[1] + 1))
        elif op == sre_c.CATEGORY:
            chars.extend(CATEGORIES.get(av, ""))
        else:
            raise ValueError(f"class item {op}")
    if negate:
        chars = [c for c in PRINTABLE if c not in chars]
    return chars


def gen_seq(seq, rng):
    out = []
    for op, av in seq:
        if op == sre_c.LITERAL:
            out.append(chr(av))
        elif op == sre_c.NOT_LITERAL:
            out.append(rng.choice([c for c in PRINTABLE if c != chr(av)]))
        elif op == sre_c.ANY:
            out.append(rng.choice(PRINTABLE))
        elif op == sre_c.IN:
            out.append(rng.choice(class_chars(av)))
        elif op == sre_c.BRANCH:
            out.extend(gen_seq(rng.choice(av[1]), rng))
        elif op == sre_c.SUBPATTERN:
            out.extend(gen_seq(av[-1], rng))
        elif op in (sre_c.MAX_REPEAT, sre_c.MIN_REPEAT):
            low, high, sub = av
            # reggen's Generate(1): an unbounded repetition adds at most one more.
            if high == sre_c.MAXREPEAT:
                high = low + 1
            for _ in range(rng.randint(low, high)):
                out.extend(gen_seq(sub, rng))
        elif op == sre_c.AT:
            pass
        elif op == sre_c.CATEGORY:
            out.append(rng.choice(CATEGORIES[av]))
        else:
            raise ValueError(f"regex op {op}")
    return out


# --- a small Go expression evaluator -----------------------------------------------------


class Unsupported(Exception):
    pass


class Evaluator:
    stopwords = []

    def __init__(self, templates, rng, env):
        self.templates = templates
        self.rng = rng
        self.env = env

    def parse_expr(self, toks, i):
        value, i = self.parse_primary(toks, i)
        while i < len(toks) and toks[i] == ("op", "+"):
            rhs, i = self.parse_primary(toks, i + 1)
            if not (isinstance(value, str) and isinstance(rhs, str)):
                raise Unsupported("+ on non-strings")
            value += rhs
        return value, i

    def parse_args(self, toks, i):
        # toks[i] is "("
        args = []
        spread = False
        i += 1
        while toks[i] != ("op", ")"):
            arg, i = self.parse_expr(toks, i)
            args.append(arg)
            if toks[i] == ("op", "..."):
                spread = True
                i += 1
            if toks[i] == ("op", ","):
                i += 1
        return args, spread, i + 1

    def parse_primary(self, toks, i):
        kind, value = toks[i]
        if kind == "str":
            return value, i + 1
        if kind == "num":
            return int(value), i + 1
        if (kind, value) == ("op", "[") and toks[i + 1] == ("op", "]") and toks[i + 2] == (
            "ident",
            "byte",
        ):
            # []byte(s): the same text
            args, _, j = self.parse_args(toks, i + 3)
            return args[0], j
        if (kind, value) == ("op", "[") and toks[i + 1] == ("op", "]"):
            # []string{...}
            if toks[i + 2] != ("ident", "string") or toks[i + 3] != ("op", "{"):
                raise Unsupported("slice of non-strings")
            return self.parse_list(toks, i + 4)
        if kind == "ident" and value == "map" and toks[i + 1] == ("op", "["):
            j = i
            while toks[j] != ("op", "{"):
                j += 1
            return self.parse_map(toks, j + 1)
        if (kind, value) == ("ident", "nil"):
            return [], i + 1
        if kind == "ident":
            if i + 1 < len(toks) and toks[i + 1] == ("op", "("):
                args, spread, j = self.parse_args(toks, i + 1)
                return self.call(value, args, spread), j
            if value in self.env and self.env[value] is not None:
                return self.env[value], i + 1
            raise Unsupported(f"identifier {value}")
        raise Unsupported(f"token {value}")

    def parse_list(self, toks, i):
        items = []
        while toks[i] != ("op", "}"):
            item, i = self.parse_expr(toks, i)
            if isinstance(item, list):
                raise Unsupported("nested list")
            items.append(item)
            if toks[i] == ("op", ","):
                i += 1
        return items, i + 1

    def parse_map(self, toks, i):
        items = {}
        while toks[i] != ("op", "}"):
            key, i = self.parse_expr(toks, i)
            if toks[i] != ("op", ":"):
                raise Unsupported("map without :")
            value, i = self.parse_expr(toks, i + 1)
            items[key] = value
            if toks[i] == ("op", ","):
                i += 1
        return items, i + 1

    def call(self, name, args, spread):
        short = name.split(".")[-1]
        patterns = {
            "Numeric": "[0-9]{%s}",
            "Hex": "[a-f0-9]{%s}",
            "AlphaNumeric": "[a-z0-9]{%s}",
            "AlphaNumericExtendedShort": "[a-z0-9_-]{%s}",
            "AlphaNumericExtended": "[a-z0-9=_\\-]{%s}",
            "AlphaNumericExtendedLong": "[a-z0-9\\/=_\\+\\-]{%s}",
        }
        if name.startswith("utils.") and short in patterns:
            return patterns[short] % args[0]
        if name == "utils.Hex8_4_4_4_12":
            return "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"
        if name == "secrets.NewSecret":
            try:
                return reg_generate(args[0], self.rng)
            except Exception as e:  # a Go-only construct in the pattern
                raise Unsupported(f"NewSecret({args[0]!r}): {e}")
        if name == "newPlausibleSecret":
            # generic-api-key's helper: retry until it has a digit and no stop word.
            for _ in range(10_000):
                secret = self.call("secrets.NewSecret", args, False)
                lower = secret.lower()
                if re.search("[1-9]", secret) and not any(w in lower for w in self.stopwords):
                    return secret
            raise Unsupported("no plausible secret")
        if name == "base64.StdEncoding.EncodeToString":
            import base64

            return base64.b64encode(args[0].encode()).decode()
        if name == "utils.GenerateSampleSecrets":
            ident, secret = args
            return [
                t.replace("{i}", ident).replace("{I}", ident.upper()).replace("{s}", secret)
                for t in self.templates
            ]
        if name == "utils.GenerateSampleSecret":
            return f'{args[0]}_api_token = "{args[1]}"'
        if name == "fmt.Sprintf":
            fmt, rest = args[0], args[1:]
            out = re.sub(r"%[sdvq]", lambda m: "{}", fmt.replace("%%", "\0"))
            return out.format(*[str(a) for a in rest]).replace("\0", "%")
        if name == "strings.Repeat":
            return args[0] * args[1]
        if name == "strings.ToUpper":
            return args[0].upper()
        if name == "strings.ToLower":
            return args[0].lower()
        if name == "append":
            base = list(args[0])
            for a in args[1:]:
                if spread and isinstance(a, list):
                    base.extend(a)
                else:
                    base.append(a)
            return base
        raise Unsupported(f"call {name}")


def sample_templates(git_dir, rev):
    src = git(git_dir, "show", f"{rev}:{GENERATE_GO}")
    start = src.index("func GenerateSampleSecrets")
    body = src[start : src.index("replacer :=", start)]
    toks = tokenize(body)
    i = toks.index(("op", "{"), toks.index(("ident", "map")))
    templates = []
    # key: value pairs of the samples map, in source order
    i += 1
    while toks[i] != ("op", "}"):
        if toks[i][0] == "str" and toks[i + 1] == ("op", ":") and toks[i + 2][0] == "str":
            templates.append(toks[i + 2][1])
            i += 3
        else:
            i += 1
    return templates


def functions(src):
    """(name, body tokens) of each top-level function, and the tokens outside them."""
    toks = tokenize(src)
    out = []
    outside = []
    i = 0
    while i < len(toks):
        if toks[i] == ("ident", "func") and toks[i + 1][0] == "ident":
            name = toks[i + 1][1]
            j = i
            while toks[j] != ("op", "{"):
                j += 1
            depth = 0
            k = j
            while True:
                if toks[k] == ("op", "{"):
                    depth += 1
                elif toks[k] == ("op", "}"):
                    depth -= 1
                    if depth == 0:
                        break
                k += 1
            out.append((name, toks[j + 1 : k]))
            i = k + 1
        else:
            outside.append(toks[i])
            i += 1
    return out, outside


def package_vars(outside, templates, seed):
    """Package-level `var name = expr` values (lists shared by a file's rules)."""
    env = {}
    ev = Evaluator(templates, random.Random(seed), env)
    i = 0
    while i + 1 < len(outside):
        tok = outside[i]
        if tok[0] == "ident" and "." not in tok[1] and outside[i + 1] == ("op", "="):
            try:
                env[tok[1]], i = ev.parse_expr(outside, i + 2)
                continue
            except (Unsupported, IndexError, ValueError):
                pass
        i += 1
    return env


def rule_cases(body, templates, seed, globals_):
    rule_id = None
    for n, tok in enumerate(body):
        if tok == ("ident", "RuleID") and body[n + 1] == ("op", ":") and body[n + 2][0] == "str":
            rule_id = body[n + 2][1]
            break
    validate = None
    for n, tok in enumerate(body):
        if tok[0] == "ident" and tok[1] in ("utils.Validate", "utils.ValidateWithPaths"):
            validate = n
    if rule_id is None or validate is None:
        return None
    env = dict(globals_)
    env["nil"] = []
    lost = []
    ev = Evaluator(templates, random.Random(seed), env)
    i = 0
    while i < validate:
        tok = body[i]
        if tok == ("ident", "var") and body[i + 1][0] == "ident" and body[i + 2] == ("op", "["):
            env[body[i + 1][1]] = []
            i += 2
            continue
        if tok[0] == "ident" and "." not in tok[1] and body[i + 1] in (("op", ":="), ("op", "=")):
            name = tok[1]
            try:
                value, j = ev.parse_expr(body, i + 2)
                env[name] = value
                i = j
                continue
            except (Unsupported, IndexError, ValueError) as e:
                if name in ("tps", "fps") or name in env:
                    lost.append(f"{name}: {e}")
                env[name] = env.get(name)
        i += 1
    # the Validate call's own arguments name the lists
    k = validate + 2
    names = []
    while body[k] != ("op", ")"):
        if body[k][0] == "ident":
            names.append(body[k][1])
        k += 1
    tp_name, fp_name = names[1], names[2]
    return rule_id, env.get(tp_name), env.get(fp_name), lost


def main():
    git_dir = sys.argv[1]
    rev = sys.argv[2] if len(sys.argv) > 2 else "HEAD"
    sha = git(git_dir, "rev-parse", rev).strip()
    templates = sample_templates(git_dir, rev)
    import tomllib

    config = tomllib.loads(git(git_dir, "show", f"{rev}:config/gitleaks.toml"))
    for rule in config["rules"]:
        if rule["id"] == "generic-api-key":
            for allowlist in rule.get("allowlists", []):
                Evaluator.stopwords.extend(allowlist.get("stopwords", []))
    files = [
        f
        for f in git(git_dir, "ls-tree", "--name-only", rev, RULES_DIR).split()
        if f.endswith(".go") and not f.endswith("_test.go")
    ]
    cases = []
    lost_total = []
    for f in sorted(files):
        src = git(git_dir, "show", f"{rev}:{f}")
        funcs, outside = functions(src)
        globals_ = package_vars(outside, templates, seed=f"{f}:vars")
        for name, body in funcs:
            found = rule_cases(body, templates, seed=f"{f}:{name}", globals_=globals_)
            if not found:
                continue
            rule_id, tps, fps, lost = found
            lost_total.extend(f"{rule_id} {x}" for x in lost)
            for kind, items in (("tp", tps), ("fp", fps)):
                if items is None:
                    lost_total.append(f"{rule_id} {kind}: not evaluated")
                    continue
                pairs = items.items() if isinstance(items, dict) else ((None, t) for t in items)
                for path, text in pairs:
                    case = {"rule": rule_id, "kind": kind}
                    if path is not None:
                        case["path"] = path
                    case["text_b64"] = base64.b64encode(text.encode()).decode()
                    cases.append(case)
    out = {
        "source": f"github.com/gitleaks/gitleaks@{sha} {RULES_DIR}*.go (MIT)",
        "generator": "scripts/gitleaks-cases.py",
        "not_evaluated": sorted(lost_total),
        "cases": cases,
    }
    # One case a line: small diffs when the corpus is regenerated.
    sys.stdout.write("{\n")
    for key in ("source", "generator", "not_evaluated"):
        sys.stdout.write(f"{json.dumps(key)}: {json.dumps(out[key])},\n")
    sys.stdout.write('"cases": [\n')
    sys.stdout.write(",\n".join(json.dumps(c) for c in cases))
    sys.stdout.write("\n]}\n")
    tps = sum(1 for c in cases if c["kind"] == "tp")
    print(
        f"{len(cases)} cases ({tps} tp, {len(cases) - tps} fp) over "
        f"{len({c['rule'] for c in cases})} rules; {len(lost_total)} expressions not evaluated",
        file=sys.stderr,
    )


if __name__ == "__main__":
    main()
