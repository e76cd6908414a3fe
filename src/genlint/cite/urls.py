"""URL keys: two URLs with the same key name the same page (duplicate sources merge on it)."""

from __future__ import annotations

import unicodedata
from urllib.parse import parse_qsl, quote, unquote, urlencode, urlsplit

from .. import _lazy_re as lazy_re

# Query parameters that identify a click, a campaign or a share, never the page itself.
_TRACKING_PARAMS = frozenset(
    {
        "fbclid",
        "gclid",
        "gclsrc",
        "dclid",
        "gbraid",
        "wbraid",
        "msclkid",
        "yclid",
        "twclid",
        "igshid",
        "mc_cid",
        "mc_eid",
        "_ga",
        "_gl",
        "_hsenc",
        "_hsmi",
        "mkt_tok",
        "ref_src",
        "ref_url",
        "spm",
        "share_source",
        "share_medium",
        "vd_source",
        "si",
    }
)
_TRACKING_PREFIXES = ("utm_", "pk_", "hmb_")
_DEFAULT_PORTS = {"http": "80", "https": "443"}
# An http(s) URL whose key needs no URL parsing: a host, a path and a query of unreserved
# characters (no escapes, no "+"), and any ASCII fragment (the key drops it).
_SIMPLE_URL = lazy_re.compile(
    r"[Hh][Tt][Tt][Pp][Ss]?://([A-Za-z0-9.-]+)(/[A-Za-z0-9/._~-]*)?"
    r"(?:\?([A-Za-z0-9._~=&-]*))?(?:#[!-~]*)?"
)
_SLASHES = lazy_re.compile(r"/{2,}")
_INDEX_PAGES = ("/index.html", "/index.htm", "/index.php")


def normalise_url(url: str) -> str:
    """A key equal for URLs naming the same page: scheme, ``www.``, default port, trailing
    slash, fragment, tracking parameters, parameter order and percent-encoding ignored."""
    text = url.strip()
    simple = _SIMPLE_URL.fullmatch(text)
    if simple:
        # Most URLs are plain http(s) with no port and no escape: the key the general path
        # computes for them, without urlsplit, quote and parse_qsl (several times faster;
        # tests/cite/test_sources.py holds the two paths equal).
        host, path, query = simple.groups()
        query = _simple_query_key(query) if query else ""
        if query is not None:
            # (_host_key and _path_key inline: most hosts end with no dot and start with no
            # "www.", most paths have no "//" nor index page)
            host = host.lower()
            if host[-1:] == "." or host.startswith("www."):
                host = _host_key(host)
            if path and (path[-1] == "/" or "//" in path or path.endswith(_INDEX_PAGES)):
                path = _path_key(path)
            return host + (path or "") + query
    return _normalise_url_general(text)


def _normalise_url_general(text: str) -> str:
    text = unicodedata.normalize("NFKC", text)
    if "//" not in text:
        text = "//" + text
    try:
        parts = urlsplit(text)
        port = parts.port
    except ValueError:
        return text.casefold()
    host = _host_key(parts.hostname or "")
    if port is not None and str(port) != _DEFAULT_PORTS.get(parts.scheme.lower()):
        host = f"{host}:{port}"
    path = _path_key(quote(unquote(parts.path), safe="/:@!$&'()*+,;=-._~"))
    query = sorted(
        (k, v)
        for k, v in parse_qsl(parts.query, keep_blank_values=True)
        if k.lower() not in _TRACKING_PARAMS and not k.lower().startswith(_TRACKING_PREFIXES)
    )
    key = host + path
    if query:
        key += "?" + urlencode(query)
    return key


def _simple_query_key(query: str) -> str | None:
    """The query part of the key for a query of unreserved characters, as parse_qsl, the
    tracking filter and urlencode make it; None when a value holds "=" (urlencode escapes it)."""
    pairs = []
    for pair in query.split("&"):
        if not pair:
            continue
        name, _, value = pair.partition("=")
        if "=" in value:
            return None
        low = name.lower()
        if low not in _TRACKING_PARAMS and not low.startswith(_TRACKING_PREFIXES):
            pairs.append((name, value))
    if not pairs:
        return ""
    pairs.sort()
    return "?" + "&".join(f"{name}={value}" for name, value in pairs)


def _host_key(host: str) -> str:
    host = host.rstrip(".")
    return host[4:] if host.startswith("www.") else host


def _path_key(path: str) -> str:
    if "//" in path:
        path = _SLASHES.sub("/", path)
    path = path.rstrip("/")
    if path.endswith(_INDEX_PAGES):
        path = path.rsplit("/", 1)[0]
    return path
