#!/usr/bin/env node
// The `reelbase` command. It runs the build (dist/), which `npm install` makes through the root
// `prepare` script; from a source checkout without it, run `npm run build` first.
import { main } from '../dist/index.js';

await main();
