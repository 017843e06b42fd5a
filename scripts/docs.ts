// Writes docs/reference.md from the operation table; a test fails when it is stale.
import { writeFileSync } from 'node:fs';
import { operations, renderReference } from '@reelbase/core';

writeFileSync(new URL('../docs/reference.md', import.meta.url), renderReference(operations));
console.log('docs/reference.md written');
