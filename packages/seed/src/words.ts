import type { Random } from './random';

/** Word stock for synthetic names, titles and texts: plain English, so lists and searches read naturally. */
const firstNames = ['Ada', 'Alan', 'Amara', 'Bea', 'Carlos', 'Chen', 'Dana', 'Emil', 'Fatima', 'Grace', 'Hugo', 'Ines', 'Jonas', 'Kemal', 'Lena', 'Mateo', 'Nia', 'Olga', 'Priya', 'Quinn', 'Rosa', 'Sami', 'Tomas', 'Uma', 'Viktor', 'Wen', 'Yara', 'Zoe'];
const lastNames = ['Abe', 'Berg', 'Costa', 'Diaz', 'Eze', 'Fischer', 'Garcia', 'Haas', 'Ito', 'Jensen', 'Khan', 'Lopez', 'Moreau', 'Novak', 'Okafor', 'Park', 'Rossi', 'Silva', 'Tanaka', 'Ueda', 'Vidal', 'Weber', 'Young', 'Zhang'];
const places = ['Lisbon', 'Kyoto', 'Nairobi', 'Oslo', 'Lima', 'Hanoi', 'Quebec', 'Tbilisi', 'Seville', 'Auckland', 'Reykjavik', 'Marrakesh'];
const adjectives = ['Quiet', 'Golden', 'Foggy', 'Electric', 'Hidden', 'Endless', 'Tiny', 'Wild', 'Slow', 'Midnight', 'Frozen', 'Bright', 'Lost', 'Urban', 'Ancient', 'Restless'];
const nouns = ['harbour', 'forest', 'kitchen', 'skyline', 'river', 'studio', 'desert', 'garden', 'market', 'railway', 'mountain', 'workshop', 'coast', 'festival', 'library', 'orchard'];
const formats = ['timelapse', 'tutorial', 'short film', 'vlog', 'documentary', 'live session', 'review', 'walkthrough', 'music video', 'interview'];
const channelTopics = ['Travel', 'Cooking', 'Animation', 'Music', 'Science', 'Cycling', 'Architecture', 'Wildlife', 'Comedy', 'Design', 'Gaming', 'Dance'];
const channelNouns = ['Diaries', 'Lab', 'Collective', 'Weekly', 'Picks', 'Corner', 'Stories', 'Club', 'Archive', 'Sessions'];
const commentOpeners = ['Love this', 'Beautiful shot', 'What camera did you use', 'This made my day', 'Great edit', 'The music fits perfectly', 'I watched it twice', 'So calm', 'Amazing colours', 'Thanks for sharing'];
/** The most common tags first: a power law over the vocabulary makes the first ones the busiest. */
const commonTags = [
  'music', 'travel', 'nature', 'animation', 'documentary', 'comedy', 'art', 'food', 'sports', 'technology',
  'film', 'dance', 'education', 'gaming', 'design', 'photography', 'science', 'fashion', 'cars', 'architecture',
  'timelapse', 'drone', 'wildlife', 'ocean', 'mountains', 'city', 'night', 'sunset', 'winter', 'summer',
];
const syllables = ['ka', 'lo', 'mi', 'ne', 'ru', 'sa', 'ti', 'vo', 'ze', 'ba', 'do', 'fi', 'gu', 'ha', 'ji', 'ko', 'la', 'mu', 'no', 'pe', 'ri', 'so', 'ta', 'un', 'ver', 'wil', 'xan', 'yor'];

export const personName = (random: Random): string => `${random.pick(firstNames)} ${random.pick(lastNames)}`;

export const location = (random: Random): string => random.pick(places);

export const videoTitle = (random: Random, n: number): string =>
  `${random.pick(adjectives)} ${random.pick(nouns)} ${random.pick(formats)} #${n}`;

export const videoDescription = (random: Random): string =>
  `A ${random.pick(formats)} about a ${random.pick(adjectives).toLowerCase()} ${random.pick(nouns)} in ${random.pick(places)}. ` +
  `Filmed over ${1 + random.int(30)} days.`;

export const channelName = (random: Random, n: number): string => `${random.pick(channelTopics)} ${random.pick(channelNouns)} ${n}`;

export const channelDescription = (random: Random): string =>
  `The best ${random.pick(channelTopics).toLowerCase()} videos, picked by hand every week.`;

export const commentText = (random: Random): string => `${random.pick(commentOpeners)}${random.chance(0.5) ? '!' : '.'}`;

/** `count` distinct lower-case tag words: the common ones, then invented words made of syllables. */
export function tagWords(random: Random, count: number): string[] {
  const words = new Set(commonTags.slice(0, count));
  while (words.size < count) {
    const parts = 2 + random.int(3);
    let word = '';
    for (let i = 0; i < parts; i++) word += random.pick(syllables);
    words.add(word);
  }
  return [...words];
}
