"""The multiplayer server: lobby, one actor per table, WebSocket protocol, store, web client."""
