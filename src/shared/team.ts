import * as v from 'valibot';

// The team (issue 17, RULES.md "Rewards, salary, CTO, leadership", API.md "Team and rewards"): a
// member's direct members and their whole downline as a tree. Team business of a member is the sum of
// every investment of their downline, all levels; team size is how many members that downline holds.

/** Levels a tree answer holds below the node asked for; deeper ones load when the member opens them. */
export const TREE_DEPTH_DEFAULT = 2;
export const TREE_DEPTH_MAX = 5;
/** Children shown per node in one answer; the rest come with "show more" (offset). */
export const TREE_CHILDREN_LIMIT = 50;
export const TEAM_SEARCH_LIMIT = 20;

export const TEAM_MESSAGES = {
  notFound: 'No member with this id in your team',
  queryShort: 'Type at least 2 characters of a username',
} as const;

export const TEAM_TEXT = {
  directTitle: 'Direct members',
  treeTitle: 'Referral tree',
  search: 'Search by username',
  searchTree: 'Find a username in your team',
  noDirects: 'No direct members yet. Share your referral link to invite people.',
  noMatch: 'No member of your team matches',
  active: 'Activated',
  inactive: 'Not activated',
  joined: 'Joined',
  investment: 'Investment',
  teamSize: 'Team size',
  teamBusiness: 'Team business',
  directs: 'Direct members',
  level: (n: number) => `Level ${n}`,
  expand: (name: string) => `Show the team of ${name}`,
  collapse: (name: string) => `Hide the team of ${name}`,
  showMore: (n: number) => `Show ${n} more`,
  loading: 'Loading team...',
} as const;

const id = v.pipe(v.string(), v.trim(), v.nonEmpty(TEAM_MESSAGES.notFound));
export const teamIdParamsSchema = v.object({ id });

/** GET /referral/full/{id}?node&depth&offset: the tree under `node` (default the member) for `depth` levels. */
export const treeQuerySchema = v.object({
  node: v.optional(id),
  depth: v.optional(v.pipe(v.string(), v.toNumber(), v.integer(), v.minValue(1), v.maxValue(TREE_DEPTH_MAX))),
  offset: v.optional(v.pipe(v.string(), v.toNumber(), v.integer(), v.minValue(0))),
});
export type TreeQuery = v.InferOutput<typeof treeQuerySchema>;

export const teamSearchQuerySchema = v.object({
  q: v.pipe(
    v.string(TEAM_MESSAGES.queryShort),
    v.trim(),
    v.minLength(2, TEAM_MESSAGES.queryShort),
    v.maxLength(30),
  ),
});

/** One direct member, with their own investment and their team. */
export const directMemberSchema = v.object({
  id: v.string(),
  fullname: v.string(),
  username: v.string(),
  created_at: v.string(),
  is_active: v.picklist(['active', 'inactive']),
  investment: v.string(),
  team_size: v.number(),
  team_business: v.string(),
});
export type DirectMember = v.InferOutput<typeof directMemberSchema>;
export const directMembersSchema = v.object({ members: v.array(directMemberSchema) });

/**
 * A node as API.md names it plus what the screen needs: `children` is null where the answer stops
 * (open it to load it); `children_count` says how many there are; `children_more` how many of the
 * loaded level were left for "show more".
 */
export type TreeNode = {
  id: string;
  username: string;
  fullname: string;
  is_active: 'active' | 'inactive';
  level: number;
  investment: string;
  team_size: number;
  team_business: string;
  children_count: number;
  children_more: number;
  children: TreeNode[] | null;
};
export const treeNodeSchema: v.GenericSchema<TreeNode> = v.object({
  id: v.string(),
  username: v.string(),
  fullname: v.string(),
  is_active: v.picklist(['active', 'inactive']),
  level: v.number(),
  investment: v.string(),
  team_size: v.number(),
  team_business: v.string(),
  children_count: v.number(),
  children_more: v.number(),
  children: v.nullable(v.array(v.lazy(() => treeNodeSchema))),
});
export const treeSchema = v.object({ tree: treeNodeSchema });

/** A search hit: the member and the ids from the tree's root down to them, to open the way there. */
export const teamSearchSchema = v.object({
  matches: v.array(
    v.object({
      id: v.string(),
      username: v.string(),
      fullname: v.string(),
      level: v.number(),
      path: v.array(v.string()),
    }),
  ),
});
export type TeamSearch = v.InferOutput<typeof teamSearchSchema>;
