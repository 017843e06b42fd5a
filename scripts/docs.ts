// Writes docs/reference.md (from the operation table) and docs/cli-reference.md (from the
// commander program); tests fail when either is stale.
import { writeFileSync } from 'node:fs';
import { operations, renderReference } from '@reelbase/core';
import { renderCliReference } from '@reelbase/cli';

writeFileSync(new URL('../docs/reference.md', import.meta.url), renderReference(operations));
console.log('docs/reference.md written');
writeFileSync(new URL('../docs/cli-reference.md', import.meta.url), renderCliReference());
console.log('docs/cli-reference.md written');
