"""The runners: what builds again and again, and keeps what the next build reuses (watch, the resident builder, the session)."""
