import * as v from 'valibot';

// Leadership (issue 17 item 4, RULES.md): members by the highest rung of the reward ladder their team
// business reaches. Read from the ledger's investments and the ladder; nothing is stored, so there is
// nothing to delete (the spec's DELETE /leadership/{id} is not offered).

export const leaderSchema = v.object({
  user_id: v.string(),
  username: v.string(),
  fullname: v.string(),
  rank: v.string(),
  team_business: v.string(),
});
export type Leader = v.InferOutput<typeof leaderSchema>;
export const leadershipSchema = v.object({ leaders: v.array(leaderSchema) });
export const memberRankSchema = v.object({ rank: v.nullable(v.string()), team_business: v.string() });
