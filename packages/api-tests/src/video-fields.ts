/**
 * One bad value for every field of SPEC.md's Video table (each enum, range, boolean and type),
 * with the field the 400 must name. PATCH /videos/{id} and POST /me/videos share the table.
 */
export type InvalidVideoField = [field: string, body: Record<string, unknown>];

const nest = (path: string, value: unknown): Record<string, unknown> =>
  path.split('.').reduceRight<unknown>((acc, key) => ({ [key]: acc }), value) as Record<string, unknown>;

const booleans = [
  'privacy.download',
  'privacy.add',
  'review_page.active',
  'review_link',
  ...['embed', 'fullscreen', 'hd', 'like', 'scaling', 'share', 'watchlater'].map((b) => `embed.buttons.${b}`),
  'embed.logos.custom.active',
  'embed.logos.custom.sticky',
  'embed.logos.service',
  'embed.playbar',
  'embed.volume',
];

const timeline = (entry: Record<string, unknown>): Record<string, unknown> => ({ spatial: { director_timeline: [entry] } });

export const invalidVideoFields: InvalidVideoField[] = [
  ['license', { license: 'gpl' }],
  ['locale', { locale: 'klingon' }],
  ['content_rating.0', { content_rating: ['gore'] }],
  ['content_rating.1', { content_rating: 'safe,gore' }],
  ['privacy.view', { privacy: { view: 'friends' } }],
  ['privacy.comments', { privacy: { comments: 'users' } }],
  ['privacy.embed', { privacy: { embed: 'open' } }],
  ...booleans.map((field): InvalidVideoField => [field, nest(field, 'sometimes')]),
  ['privacy.add', { privacy: { add: 2 } }],
  ['embed.color', { embed: { color: 'red' } }],
  ['embed.logos.custom.link', { embed: { logos: { custom: { link: 'javascript:alert(1)' } } } }],
  ['embed.title.name', { embed: { title: { name: 'maybe' } } }],
  ['embed.title.owner', { embed: { title: { owner: 'maybe' } } }],
  ['embed.title.portrait', { embed: { title: { portrait: 'maybe' } } }],
  ['external_links.imdb', { external_links: { imdb: 42 } }],
  ['external_links.rotten_tomatoes', { external_links: { rotten_tomatoes: ['x'] } }],
  ['ratings.mpaa.rating', { ratings: { mpaa: { rating: 'nc18' } } }],
  ['ratings.mpaa.reason', { ratings: { mpaa: { reason: 'zz' } } }],
  ['ratings.tv.rating', { ratings: { tv: { rating: 'tv-z' } } }],
  ['ratings.tv.reason', { ratings: { tv: { reason: 'zz' } } }],
  ['spatial.projection', { spatial: { projection: 'flat' } }],
  ['spatial.stereo_format', { spatial: { stereo_format: 'both' } }],
  ['spatial.field_of_view', { spatial: { field_of_view: 29 } }],
  ['spatial.field_of_view', { spatial: { field_of_view: 91 } }],
  ['spatial.field_of_view', { spatial: { field_of_view: 45.5 } }],
  ['spatial.field_of_view', { spatial: { field_of_view: 'wide' } }],
  ['spatial.director_timeline.0.pitch', timeline({ time_code: 1, pitch: -91, yaw: 0 })],
  ['spatial.director_timeline.0.pitch', timeline({ time_code: 1, pitch: 90.5, yaw: 0 })],
  ['spatial.director_timeline.0.yaw', timeline({ time_code: 1, pitch: 0, yaw: 361 })],
  ['spatial.director_timeline.0.yaw', timeline({ time_code: 1, pitch: 0, yaw: -1 })],
  ['spatial.director_timeline.0.time_code', timeline({ pitch: 0, yaw: 0 })],
  ['spatial.director_timeline.0.pitch', timeline({ time_code: 0, yaw: 0 })],
  ['spatial.director_timeline.0.yaw', timeline({ time_code: 0, pitch: 0 })],
  ['spatial.director_timeline.0.roll', timeline({ time_code: 0, pitch: 0, yaw: 0, roll: 'x' })],
  ['spatial.director_timeline', { spatial: { director_timeline: { time_code: 0 } } }],
  ['name', { name: 12 }],
  ['description', { description: 'x'.repeat(5001) }],
  ['password', { privacy: { view: 'password' } }],
];
