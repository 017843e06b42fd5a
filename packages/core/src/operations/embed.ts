import { customLogoOperations } from './custom-logos';
import { presetOperations } from './presets';

/** SPEC.md "Embed presets and custom logos". */
export const embedOperations = [...presetOperations, ...customLogoOperations];
