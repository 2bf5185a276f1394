// The member's glossary: one plain definition for each term of art the screens use, read beside the
// term through its "?" (ui/term.tsx). Definitions state the rules as rules: nothing here promises a
// payment (docs/rules.md "Words members read").

export const GLOSSARY = {
  activeWallet: {
    term: 'Active Wallet',
    definition:
      'Your main wallet. Money you add lands here, and plans, investments and transfers are paid from it.',
  },
  incomeWorking: {
    term: 'Income Working',
    definition:
      'The wallet your income is paid into: ROI, activation and level income, rewards, salary and CTO. You withdraw from it, or turn it into a new investment (compound).',
  },
  roi: {
    term: 'ROI',
    definition:
      'Return on investment: for each UTC day the daily run pays, your plan’s daily rate of the amount you invested, into Income Working. It ends when the plan’s days are over or the income cap is reached, and it is paid only while your account may earn.',
  },
  activationIncome: {
    term: 'Activation income',
    definition:
      'When a member of your team buys a plan, a set percent of its amount goes to their sponsors, level 1 (their own sponsor) upward, to each one who qualifies at that level.',
  },
  levelIncome: {
    term: 'Level income',
    definition:
      'When a member of your team is paid ROI, set percents of that payment go to their sponsors, level by level. To qualify at a level, your account must be activated and have at least that many activated direct members.',
  },
  compound: {
    term: 'Compound',
    definition:
      'Turning money in Income Working into a new investment in a plan instead of withdrawing it. You ask for it like a withdrawal; the money is held until an admin decides.',
  },
  incomeCap: {
    term: 'Income cap',
    definition:
      'The most ROI one investment can pay: a percent of its amount fixed when it was bought (200% unless the platform set another). Once reached, the investment stops paying.',
  },
  teamBusiness: {
    term: 'Team business',
    definition:
      'What your whole team (the members you invited, the members they invited, and so on) has invested, less the principal they took back. Reward ranks are reached by it.',
  },
  carryForward: {
    term: 'Carry forward',
    definition:
      'Moving the team business beyond your last reached reward rank on toward the next rank, so it counts there.',
  },
  salary: {
    term: 'Salary',
    definition:
      'A monthly payment, on the 1st for the month before, when the new business your team brought in that month and your activated direct members meet one of the salary tiers.',
  },
  cto: {
    term: 'CTO',
    definition:
      'A share of the platform’s deposits of a month, split equally among the members holding the two highest reward ranks, paid once an admin pays that month.',
  },
  tradingPair: {
    term: 'Trading pair',
    definition:
      'The market you follow in the app, such as BTC/USDT: the price of one coin counted in the other. Choosing one places no order and moves no money.',
  },
} as const satisfies Record<string, { term: string; definition: string }>;

export type GlossaryId = keyof typeof GLOSSARY;
