"""Model text as Python source: the one place that turns text into source.

Everything a template places is a `Source` (or a `naming.Identifier`): string
literals, docstrings and comments that only ever hold the text, whatever quotes,
backslashes, braces or unicode it contains, and code composed from those pieces.
Only this module constructs a `Source`, so model text cannot reach a generated file
any other way (the renderer refuses anything else).
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterable
from string import Formatter
from typing import NoReturn

from waitable.printable import code_point_escape

from .naming import Identifier

_SIMPLE_ESCAPES = {"\\": "\\\\", "\t": "\\t", "\r": "\\r", "\n": "\\n", '"': '\\"'}
_KEY = object()


class Source(str):
    """Python source text built by this module from safe parts: a literal, a
    docstring, an escaped text, or generator-written code around such pieces."""

    __slots__ = ()

    def __new__(cls, text: str, key: object = None) -> Source:
        if key is not _KEY:
            raise TypeError(
                "Source is built only by waitable_codegen.literals (string_literal, "
                "docstring_literal, escaped, compose, ...); model text must pass "
                "through one of them"
            )
        return super().__new__(cls, text)

    def reformatted(self, formatter: Callable[[str], str]) -> Source:
        """This source passed through a source-to-source formatter (black): the
        same code laid out again, so still safe."""
        return _made(formatter(self))


SafePart = Source | Identifier
_SAFE_PART_TYPES = frozenset({Source, Identifier})


def _made(text: str) -> Source:
    """`text` as a Source, made by this module (`str.__new__` directly: the checked
    constructor above is for everyone else, and refuses them)."""
    return str.__new__(Source, text)


def _escape_char(char: str, keep_newlines: bool) -> str:
    if char == "\n" and keep_newlines:
        return char
    if char in _SIMPLE_ESCAPES:
        return _SIMPLE_ESCAPES[char]
    if char.isprintable():
        return char
    return code_point_escape(char)


def _escaped(text: str) -> str:
    if text.isprintable():  # the common case: only backslashes and quotes change
        return text.replace("\\", "\\\\").replace('"', '\\"')
    return "".join(_escape_char(char, False) for char in text)


def string_literal(text: str) -> Source:
    """A Python literal whose value is exactly `text`, quoted as black quotes it.

    Double quotes, unless `text` holds more `"` than `'` (black then prefers the
    single-quoted form, which needs fewer escapes). Printable unicode is kept as
    is (files are UTF-8); everything else (controls, separators, lone surrogates)
    is escaped, so the literal is one line of source.
    """
    if text.count('"') > text.count("'"):
        body = _escaped(text).replace('\\"', '"').replace("'", "\\'")
        return str.__new__(Source, f"'{body}'")
    return str.__new__(Source, f'"{_escaped(text)}"')  # `_made` inlined: called often


def escaped(text: str) -> Source:
    """`text` as it is written inside `string_literal`'s quotes: one line with no
    quote, line break or unprintable character left unescaped, so it is safe in a
    comment too (the `# From:` header)."""
    return _made(_escaped(text))


def number_literal(value: int) -> Source:
    """The source of an int or bool constant (`5`, `True`)."""
    if not isinstance(value, int):
        raise TypeError(f"not an int or bool: {value!r}")
    return _made(repr(value))


def pad(width: int) -> Source:
    """`width` spaces: indentation for composed code."""
    padding = _PADS.get(width)
    if padding is None:
        padding = _PADS[width] = _made(" " * width)
    return padding


_PADS: dict[int, Source] = {}


def compose(template: str, *parts: SafePart) -> Source:
    """Code written by the generator (`template`, its `{}` placeholders filled in
    order with `parts`). `template` must be a constant in the generator's own
    source (a test checks every call site); each part must already be safe.

    The same text as `template.format(*parts)`, made with the template turned
    once into a `%s` template: `str.format` formats each `str` subclass through
    its `__format__`, two to four times slower."""
    for part in parts:  # a loop, not a set of the types: most calls pass 1 or 2
        if type(part) not in _SAFE_PART_TYPES:
            _refuse(part, "compose")
    known = _PERCENT_TEMPLATES.get(template)
    if known is None:
        known = _PERCENT_TEMPLATES[template] = _percent_template(template)
    percent, fields = known
    if fields != len(parts):
        return _made(template.format(*parts))  # as format fails, or ignores extras
    return str.__new__(Source, percent % parts)  # `_made` inlined: the hot path


def join(separator: str, parts: Iterable[SafePart]) -> Source:
    """`parts` joined by `separator` (a constant of the generator, like `", "`)."""
    items = tuple(parts)
    for item in items:
        if type(item) not in _SAFE_PART_TYPES:
            _refuse(item, "join")
    return str.__new__(Source, separator.join(items))


def _refuse(part: object, what: str) -> NoReturn:
    """Refuse a part that is neither a Source nor an Identifier."""
    raise TypeError(
        f"{what}() takes only Source or Identifier parts, not "
        f"{type(part).__name__} {str(part)[:60]!r}"
    )


_PERCENT_TEMPLATES: dict[str, tuple[str, int]] = {}


def _percent_template(template: str) -> tuple[str, int]:
    """`template` as a `%s` template and its number of fields; `("", -1)` when a
    field is named, numbered, converted or formatted (left to `str.format`)."""
    pieces: list[str] = []
    fields = 0
    for text, field, spec, conversion in Formatter().parse(template):
        pieces.append(text.replace("%", "%%"))
        if field is None:
            continue
        if field or spec or conversion:
            return "", -1
        pieces.append("%s")
        fields += 1
    return "".join(pieces), fields


def compiled_function(source: str, name: Identifier) -> Source:
    """The source of one compiled JMESPath function (written by the generator's own
    compiler, which places model text only through `string_literal`), checked to
    be exactly one function definition named `name` and nothing else."""
    tree = ast.parse(source)
    if (
        len(tree.body) != 1
        or not isinstance(tree.body[0], ast.FunctionDef)
        or tree.body[0].name != name
    ):
        raise ValueError(
            f"internal error: the JMESPath compiler returned something other than "
            f"one function {name}; please report this with the model"
        )
    return _made(source)


def docstring_body(text: str) -> str:
    """The source between a docstring's triple quotes whose value is exactly `text`.

    Newlines stay real line breaks and ordinary quotes stay readable; a quote that
    starts the text, ends it or is followed by another quote is written `\\x22`, so
    nothing in `text` can close the string early (and black adds no padding).
    Backslashes are doubled, and tabs and non-printable characters escaped so that
    black's docstring handling (which expands tabs) leaves the value alone. `text`
    should carry no trailing spaces on its lines, as black strips those (see
    `docs.py`).
    """
    if '"' not in text and all(line.isprintable() for line in text.split("\n")):
        return text.replace("\\", "\\\\")  # the common case, as the loop below
    text = "".join("\ufffd" if 0xD800 <= ord(c) <= 0xDFFF else c for c in text)
    out: list[str] = []
    last = len(text) - 1
    for index, char in enumerate(text):
        if char == '"':
            risky = index in (0, last) or text[index + 1] == '"'
            out.append("\\x22" if risky else char)
        else:
            out.append(_escape_char(char, True))
    return "".join(out)


def docstring_literal(text: str, indent: int, line_length: int = 88) -> Source:
    """A complete `\"\"\"...\"\"\"` docstring for `text`, laid out as black lays it out.

    Lines after the first are indented by `indent` spaces (the docstring's own
    block), and the closing quotes go on their own line when they would not fit on
    the last one, so black finds nothing to change. `text` must be normalised
    (`docs.normalize`): no trailing spaces, no common indentation.
    """
    lines = docstring_body(text).split("\n")
    prefix = " " * indent
    body = "\n".join([lines[0]] + [prefix + line if line else "" for line in lines[1:]])
    last = len(prefix + lines[-1]) if len(lines) > 1 else 0
    if len(lines) > 1 and last + 3 > line_length:
        return _made(f'"""{body}\n{prefix}"""')
    return _made(f'"""{body}"""')
