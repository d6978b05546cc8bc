// Loaded before every test file (bunfig.toml). Tests never reach the internet: upstreams point at loopback fixtures.
process.env.LOG_LEVEL ??= 'silent'
