/** An On Demand genre of the built-in list; `id` is the `{genre_id}` of paths. */
export interface Genre {
  id: string;
  name: string;
}

const list: [id: string, name: string][] = [
  ['action', 'Action & Adventure'],
  ['animation', 'Animation'],
  ['arts', 'Arts & Design'],
  ['comedy', 'Comedy'],
  ['documentary', 'Documentary'],
  ['drama', 'Drama'],
  ['education', 'Education'],
  ['experimental', 'Experimental'],
  ['family', 'Kids & Family'],
  ['horror', 'Horror'],
  ['independent', 'Independent'],
  ['instructional', 'Instructional'],
  ['lgbtq', 'LGBTQ'],
  ['music', 'Music'],
  ['romance', 'Romance'],
  ['scifi', 'Sci-Fi & Fantasy'],
  ['shorts', 'Short Films'],
  ['sports', 'Sports'],
  ['thriller', 'Thriller & Mystery'],
  ['travel', 'Travel'],
];

/** The genres On Demand pages are filed under, in display order. */
export const genres: ReadonlyMap<string, Genre> = new Map(list.map(([id, name]) => [id, { id, name }]));
