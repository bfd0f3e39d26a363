import fc from 'fast-check'

/**
 * CI runs property tests with a fixed seed so a landing never depends on luck; locally every run draws a
 * new seed (and prints it on failure), which is where new counterexamples are found.
 */
if (process.env.CI) fc.configureGlobal({ seed: 20261122 })
