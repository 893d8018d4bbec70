"""graphmem as an MCP server (``graphmem mcp``; ``pip install 'graphmem[mcp]'``).

Built on the official MCP Python SDK's high-level server. See
:mod:`graphmem.mcp.server` (build and run) and :mod:`graphmem.mcp.tools` (the
tools, and how to add one).
"""
