"""Pictures of positions and whole games: SVG drawings and the self-contained HTML replay."""
