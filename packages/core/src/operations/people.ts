import { followerOperations } from './followers';
import { followingOperations } from './following';
import { portraitOperations } from './portraits';
import { userLikeOperations } from './user-likes';
import { watchlaterOperations } from './watchlater';

/** Follows, followers, a user's likes, watch later and portraits (SPEC.md, Users, pictures, follows, feed). */
export const peopleOperations = [
  ...followingOperations,
  ...followerOperations,
  ...userLikeOperations,
  ...watchlaterOperations,
  ...portraitOperations,
];
