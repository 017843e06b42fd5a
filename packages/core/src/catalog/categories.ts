import type { ChannelRecord } from '../records/channel';

/**
 * The category tree that ships with the service: top-level categories and their subcategories.
 * Slugs are the `{category}` of paths; names are what people read.
 */
export interface Category {
  slug: string;
  name: string;
  /** The top-level category's slug for a subcategory; null at the top. */
  parent: string | null;
}

const tree: Record<string, [name: string, subcategories: Record<string, string>]> = {
  animation: ['Animation', { '2d': '2D', '3d': '3D', 'motion-graphics': 'Motion Graphics', 'stop-motion': 'Stop Motion' }],
  art: ['Arts & Design', { 'art-architecture': 'Architecture', 'art-design': 'Design', 'art-painting': 'Painting', 'art-photography': 'Photography' }],
  cameratechniques: ['Camera Techniques', { aerial: 'Aerial', timelapse: 'Time-Lapse', 'slow-motion': 'Slow Motion', underwater: 'Underwater' }],
  comedy: ['Comedy', { sketch: 'Sketch', standup: 'Stand-up', parody: 'Parody' }],
  documentary: ['Documentary', { biography: 'Biography', history: 'History', nature: 'Nature', social: 'Social Issues' }],
  experimental: ['Experimental', { abstract: 'Abstract', 'video-art': 'Video Art' }],
  fashion: ['Fashion', { lookbook: 'Lookbook', runway: 'Runway' }],
  food: ['Food', { cooking: 'Cooking', restaurants: 'Restaurants' }],
  instructionals: ['Instructionals', { 'how-to': 'How-To', tutorials: 'Tutorials' }],
  music: ['Music', { 'music-video': 'Music Video', 'live-music': 'Live Music', 'behind-the-scenes': 'Behind the Scenes' }],
  narrative: ['Narrative', { drama: 'Drama', horror: 'Horror', 'sci-fi': 'Science Fiction', romance: 'Romance' }],
  personal: ['Personal', { family: 'Family', vlog: 'Vlog' }],
  journalism: ['Reporting & Journalism', { news: 'News', interviews: 'Interviews' }],
  sports: ['Sports', { skate: 'Skateboarding', surf: 'Surfing', snow: 'Snow Sports', bike: 'Cycling' }],
  talks: ['Talks', { conference: 'Conferences', lectures: 'Lectures' }],
  travel: ['Travel', { adventure: 'Adventure', 'city-guides': 'City Guides' }],
};

export const categories: ReadonlyMap<string, Category> = new Map(
  Object.entries(tree).flatMap(([slug, [name, subs]]): [string, Category][] => [
    [slug, { slug, name, parent: null }],
    ...Object.entries(subs).map(([sub, subName]): [string, Category] => [sub, { slug: sub, name: subName, parent: slug }]),
  ]),
);

export const topLevelCategories = (): Category[] => [...categories.values()].filter((c) => c.parent === null);

export const subcategoriesOf = (slug: string): Category[] => [...categories.values()].filter((c) => c.parent === slug);

/** A channel's categories, skipping any the shipped tree no longer has. */
export const categoriesOfChannel = (channel: ChannelRecord): Category[] => channel.categories.flatMap((slug) => categories.get(slug) ?? []);
