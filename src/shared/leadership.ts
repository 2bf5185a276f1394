import * as v from 'valibot';
import { exclusionSchema } from './rank-exclusions.ts';

// Leadership (issue 17 item 4, RULES.md): members by the highest rung of the reward ladder their team
// business reaches, read from the ledger's investments and the ladder. The spec's DELETE /leadership/{id}
// takes a member off the list (an exclusion, undone by POST /leadership/{id}/restore); `removed` lists
// them.

export const leaderSchema = v.object({
  user_id: v.string(),
  username: v.string(),
  fullname: v.string(),
  rank: v.string(),
  team_business: v.string(),
});
export type Leader = v.InferOutput<typeof leaderSchema>;
export const leadershipSchema = v.object({
  leaders: v.array(leaderSchema),
  removed: v.array(exclusionSchema),
});
export const memberRankSchema = v.object({ rank: v.nullable(v.string()), team_business: v.string() });
