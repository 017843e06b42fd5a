// Measures how much of the hosted API's published representations reelbase's answers carry
// (issue 22, item 2): a real server over a fresh populated store, each representation kind fetched
// as its owner and as another user, compared with the `required` fields of the schemas in the
// OpenAPI description named by REELBASE_HOSTED_SCHEMA (the hosted API's api.yaml; never committed).
import { drivers, Harness } from '@reelbase/api-tests';
import { formatMeasurement, measureShapes, readPublishedSchemas, schemaVariable, shapesWorld } from '../packages/api-tests/src/published-shapes';

const path = process.env[schemaVariable];
if (!path) {
  console.log(`${schemaVariable} is not set: nothing to measure (point it at the hosted API's api.yaml, e.g. from github.com/vimeo/openapi).`);
  process.exit(0);
}

const schemas = readPublishedSchemas(path);
const h = await Harness.start(drivers[0]);
try {
  const world = await shapesWorld(h);
  for (const [who, viewer] of [['owner', world.a], ['another user', world.b]] as const) {
    console.log(formatMeasurement(`as ${who} (version 3.4, ${drivers[0].name}):`, await measureShapes(h, world, viewer, schemas)).join('\n'));
  }
} finally {
  await h.stop();
}
