"""Replies bounded while they arrive: an HTTP transport that counts the bytes of a response body
and cuts it past a cap, compressed bytes and decompressed bytes alike.

The SDK reads a body whole and only then parses it, and its HTTP library inflates a gzip body
in one piece: a 200 MB reply cost 660 MB, a 300 MB gzip body 960 MB. Here the body is inflated
by this transport, a block at a time (the ``Content-Encoding`` header is removed, so the
library does not inflate it again), and reading stops once either count passes the cap:
memory stays within about the cap however the server answers (docs/commands/generate.md).
"""

from __future__ import annotations

import sys
import zlib
from collections.abc import AsyncIterator
from typing import Any

__all__ = ["DEFAULT_MAX_REPLY_BYTES", "ReplyTooLarge", "capped_async_client"]

#: the largest reply body read: a million characters (the gate's default reply cap) take at most
#: 6 MB even as JSON ``\uXXXX`` escapes; 32 MiB leaves room for any chat completion a model sends
DEFAULT_MAX_REPLY_BYTES = 32 * 1024 * 1024
_BLOCK = 64 * 1024


class ReplyTooLarge(Exception):
    """The response body passed the cap; what arrived was dropped."""

    def __init__(self, cap: int, what: str) -> None:
        super().__init__(f"reply body over {cap:,} bytes ({what}); cut while receiving")
        self.cap = cap


def _http_module() -> Any:
    """The HTTP library the installed openai SDK is built on (httpx, or httpx2)."""
    import openai

    base = openai.DefaultAsyncHttpxClient.__mro__[1]
    return sys.modules[base.__module__.split(".")[0]]


def capped_async_client(cap: int = DEFAULT_MAX_REPLY_BYTES) -> Any:
    """The SDK's default async HTTP client with each of its transports bounding response bodies.

    The client builds its transports as usual and they are wrapped afterwards: given a
    ``transport=``, the HTTP library would ignore the proxy variables (``HTTPS_PROXY``) and the
    SDK's connection limits, which the sync client keeps."""
    import openai

    capped = _capped_transport_class(_http_module())
    client = _default_client(openai)()
    client._transport = capped(client._transport, cap)
    client._mounts = {
        pattern: None if transport is None else capped(transport, cap)
        for pattern, transport in client._mounts.items()
    }
    return client


def _default_client(openai: Any) -> Any:
    """The SDK's aiohttp-based client when aiohttp is installed (the ``llm`` extra brings it), else
    its default one. The SDK documents aiohttp "for improved concurrency performance"; measured
    here, a loopback request costs 0.40–0.60 ms of CPU through it against 0.64–0.88 ms through
    the default stack (quiet and busy machine; docs/commands/serve.md). Both are the SDK's own clients with its defaults (timeouts,
    connection limits, proxies from the environment)."""
    try:
        import aiohttp  # noqa: F401
    except ImportError:
        return openai.DefaultAsyncHttpxClient
    return openai.DefaultAioHttpClient


def _capped_transport_class(http: Any) -> Any:
    class CappedStream(http.AsyncByteStream):
        def __init__(self, inner: Any, cap: int, encoding: str) -> None:
            self.inner, self.cap, self.encoding = inner, cap, encoding

        async def __aiter__(self) -> AsyncIterator[bytes]:
            received = produced = 0
            inflater = _inflater(self.encoding)
            async for chunk in self.inner:
                received += len(chunk)
                if received > self.cap:
                    raise ReplyTooLarge(self.cap, "as sent")
                if inflater is None:
                    yield chunk
                    continue
                pending = chunk
                while pending:
                    try:
                        out = inflater.decompress(pending, _BLOCK)
                    except zlib.error as exc:
                        raise http.DecodingError(f"damaged {self.encoding} body: {exc}") from None
                    produced += len(out)
                    if produced > self.cap:
                        raise ReplyTooLarge(self.cap, f"once {self.encoding} is inflated")
                    if out:
                        yield out
                    pending = inflater.unconsumed_tail
            if inflater is not None:
                tail = inflater.flush()
                if produced + len(tail) > self.cap:
                    raise ReplyTooLarge(self.cap, f"once {self.encoding} is inflated")
                if tail:
                    yield tail

        async def aclose(self) -> None:
            await self.inner.aclose()

    class CappedTransport(http.AsyncBaseTransport):
        def __init__(self, inner: Any, cap: int) -> None:
            self.inner, self.cap = inner, cap

        async def handle_async_request(self, request: Any) -> Any:
            response = await self.inner.handle_async_request(request)
            encoding = response.headers.get("content-encoding", "").strip().lower()
            if encoding in ("", "identity"):
                encoding = ""
            elif encoding not in ("gzip", "x-gzip", "deflate"):
                await response.aclose()
                raise http.DecodingError(f"reply uses Content-Encoding {encoding[:40]!r}")
            length = response.headers.get("content-length", "")
            if length.isdigit() and int(length) > self.cap:
                await response.aclose()
                raise ReplyTooLarge(self.cap, f"Content-Length {int(length):,}")
            drop = {b"content-encoding", b"content-length"} if encoding else set()
            headers = [(k, v) for k, v in response.headers.raw if k.lower() not in drop]
            return http.Response(
                response.status_code,
                headers=headers,
                stream=CappedStream(response.stream, self.cap, encoding),
                extensions=response.extensions,
            )

        async def aclose(self) -> None:
            await self.inner.aclose()

    return CappedTransport


def _inflater(encoding: str) -> Any:
    if not encoding:
        return None
    if encoding in ("gzip", "x-gzip"):
        return zlib.decompressobj(16 + zlib.MAX_WBITS)
    return _Deflate()


class _Deflate:
    """``deflate`` as servers send it: zlib-wrapped (RFC 1950), or raw (RFC 1951) by mistake."""

    def __init__(self) -> None:
        self._inner: Any = None
        self.unconsumed_tail = b""

    def decompress(self, data: bytes, limit: int) -> bytes:
        if self._inner is None:
            raw = not (len(data) >= 2 and (data[0] & 0x0F) == 8 and (data[0] << 8 | data[1]) % 31 == 0)
            self._inner = zlib.decompressobj(-zlib.MAX_WBITS if raw else zlib.MAX_WBITS)
        out: bytes = self._inner.decompress(data, limit)
        self.unconsumed_tail = self._inner.unconsumed_tail
        return out

    def flush(self) -> bytes:
        return self._inner.flush() if self._inner is not None else b""
