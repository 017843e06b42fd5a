// @reelbase/seed: a realistic synthetic population written straight into a store (`reelbase seed`, the bench).
export { seedPopulation, type PopulationSummary, type SeedContext, type Busiest } from './seed-population';
export { populationOptions, maxTagVocabulary, type PopulationOptions } from './options';
export { Batches } from './batches';
export { Random } from './random';
