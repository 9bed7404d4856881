"""The web app: play and analyse every variant in the browser (`hordes serve`, `create_app()`)."""
