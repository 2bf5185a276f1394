import { MAX_TRANSFER_AMOUNT_CENTS } from '../shared/constants.ts';
import { formatUsd } from '../shared/money.ts';

// Every sentence of the landing page. Honest by rule: nothing here promises or implies a return, the
// risk is named plainly, and what the product does is described as it is built (docs/rules.md).

export const BRAND = 'Member Platform';

export const HERO = {
  eyebrow: 'Crypto trading education',
  title: 'Secure, educational and transparent crypto trading',
  text: 'Learn how crypto markets work at your own pace, then follow your membership, wallets and referrals in one app on your phone. Every figure is shown as it is, losses included.',
  primary: 'Start Trading Now',
  secondary: 'Learn More Today',
};

export const ABOUT = {
  title: 'About us',
  lead: 'We explain crypto trading in plain words and run the member app that keeps your account in one place.',
  text: 'We start with risk: how volatile crypto prices are, what fees cost and how much of your money a single trade should ever put at stake. Crypto prices move both ways, and you decide what you can afford to risk.',
  goalsTitle: 'Our goals for this year',
  goals: [
    { label: 'Members who protect their sign-in with two-factor codes', percent: 85 },
    { label: 'Support questions answered within 24 hours', percent: 95 },
  ],
  cta: 'Discover Our Story',
};

export const CHOOSE = {
  title: 'Why choose us',
  lead: 'No secret formulas and no pressure: the tools and the facts you need to make your own decisions.',
  items: [
    {
      icon: 'shield',
      title: 'Security first',
      text: 'Passwords are stored only as argon2id hashes, every sign-in starts a new session, and signing out ends it on our server.',
    },
    {
      icon: 'book',
      title: 'Education before trading',
      text: 'The answers below and our short reads cover volatility, fees and position sizing before any of your money is at stake.',
    },
    {
      icon: 'ledger',
      title: 'Transparent figures',
      text: 'Every movement in your wallets is a ledger entry that is never edited or deleted, so your balance always adds up.',
    },
    {
      icon: 'chat',
      title: 'People you can reach',
      text: 'Members open support tickets from the app and follow every answer in one thread.',
    },
  ],
} as const;

export const HOW_IT_WORKS = {
  title: 'How the platform works',
  lead: 'What you find in the member app once you have an account.',
  items: [
    {
      icon: 'wallet',
      title: 'Two wallets, one ledger',
      text: 'Your Active Wallet holds what you deposit; Income Working holds what the platform credits you. Both show their full history.',
    },
    {
      icon: 'coin',
      title: 'Deposits in USDT (BEP20)',
      text: 'You pay an invoice in USDT on BNB Smart Chain. Your wallet is credited once the payment is confirmed, and only once.',
    },
    {
      icon: 'transfer',
      title: 'Transfers between members',
      text: `Send up to ${formatUsd(MAX_TRANSFER_AMOUNT_CENTS)} per transfer to other members, within a daily limit shown on your transfer screen. Large transfers wait for a review by our team.`,
    },
    {
      icon: 'people',
      title: 'Referrals you can see',
      text: 'Share your referral link from the dashboard; everyone who joins with it appears in your network.',
    },
  ],
} as const;

/** Spec 3 "Static stats". */
export const STATS = {
  title: 'The platform in numbers',
  items: [
    { label: 'Projects Completed', value: 120 },
    { label: 'Happy Clients', value: 85 },
    { label: 'Awards Won', value: 15 },
    { label: 'Years of Experience', value: 10 },
  ],
};

export const PROCESS = {
  title: 'Get started in four steps',
  lead: 'Signing up takes a few minutes. Nothing asks you to deposit before you are ready.',
  steps: [
    {
      title: 'Create your account',
      text: 'Sign up with your e-mail and, if a member invited you, their referral code.',
    },
    {
      title: 'Learn the basics',
      text: 'Read the answers below on risk, fees and withdrawals, and the income disclosure of what members earned, before you put in any money.',
    },
    {
      title: 'Fund your Active Wallet',
      text: 'Deposit USDT on BNB Smart Chain through a payment invoice. Only send what you can afford to lose.',
    },
    {
      title: 'Follow every figure',
      text: 'Track your wallets, transfers and referrals in the app, on your phone, whenever you like.',
    },
  ],
};

export const FAQ = {
  title: 'Frequently asked questions',
  items: [
    {
      question: 'How long do withdrawals take?',
      answer:
        'Withdrawal requests are processed within 1 to 24 hours. Once sent, the blockchain network may need a few more minutes to confirm the transfer.',
    },
    {
      question: 'Can I lose money?',
      answer:
        'Yes. Crypto prices can fall fast, and you can lose some or all of the money you put in. Past results, ours or anyone else’s, say nothing about the future. Only use money you can afford to lose.',
    },
    {
      question: 'Do I need trading experience?',
      answer:
        'No. The app shows your wallets, plans and transfers with every figure as it is, and support answers your questions in the app. Learn what a wallet is, what fees cost and how to size a trade before you put in any money.',
    },
    {
      question: 'Which currency do deposits use?',
      answer:
        'USDT on BNB Smart Chain (BEP20). Sending another token, or USDT on another network, to a deposit address can lose those funds.',
    },
    {
      question: 'Can I send money to another member?',
      answer: `Yes, from either of your wallets: up to ${formatUsd(MAX_TRANSFER_AMOUNT_CENTS)} per transfer, within a daily limit your transfer screen shows. Large transfers are checked by our team first.`,
    },
    {
      question: 'How is my account protected?',
      answer:
        'Your password is never stored, only a slow argon2id hash of it; repeated wrong sign-ins are slowed down; and a blocked account’s sessions stop working at once. Use a long password you use nowhere else.',
    },
  ],
};

export type BlogCategory = 'PLANNING' | 'DEVELOPMENT' | 'MINING' | 'CHALLENGES';

/** Spec 3 "Static blog teaser": id, image, date, category, title, description. */
export type BlogTeaser = {
  id: number;
  image: string;
  date: string;
  category: BlogCategory;
  title: string;
  description: string;
};

export const BLOG = {
  title: 'From our blog',
  lead: 'Short reads on planning, risk and how crypto works.',
  posts: [
    {
      id: 1,
      image: 'blog-planning',
      date: '2026-10-28',
      category: 'PLANNING',
      title: 'Write a trading plan before your first trade',
      description: 'Decide your entry, your exit and the most you are willing to lose, then stick to it.',
    },
    {
      id: 2,
      image: 'blog-development',
      date: '2026-10-14',
      category: 'DEVELOPMENT',
      title: 'What a blockchain confirmation really means',
      description: 'Why a deposit shows as confirming first, and how many blocks make a payment final.',
    },
    {
      id: 3,
      image: 'blog-mining',
      date: '2026-09-30',
      category: 'MINING',
      title: 'How proof-of-work mining secures a network',
      description: 'Miners, hash rate and difficulty, and why mining rewards shrink over time.',
    },
    {
      id: 4,
      image: 'blog-challenges',
      date: '2026-09-16',
      category: 'CHALLENGES',
      title: 'Volatility: why crypto prices swing so hard',
      description: 'Thin markets, leverage and news: what moves prices, and what it means for your risk.',
    },
    {
      id: 5,
      image: 'blog-sizing',
      date: '2026-09-02',
      category: 'PLANNING',
      title: 'Position sizing: how much to put on one trade',
      description: 'Keeping each trade small means one bad call cannot wipe out your account.',
    },
    {
      id: 6,
      image: 'blog-scams',
      date: '2026-08-19',
      category: 'CHALLENGES',
      title: 'Spotting scams that look too good to be true',
      description: 'Fake support agents, copied websites and pressure to pay fast: the warning signs.',
    },
  ] satisfies BlogTeaser[],
};

export const CONTACT = {
  title: 'Contact us',
  lead: 'Questions about your membership? Write to us.',
  notice:
    'This form is not connected yet: nothing you type here is sent or stored. Members reach our team through a support ticket in the app.',
  sent: 'Nothing was sent: this form is not connected yet. Please sign in and open a support ticket, and we will answer you there.',
  submit: 'Send message',
};

export const FOOTER = {
  description:
    'Crypto trading education and a member app that shows every figure as it is. Trading crypto involves significant risk: only use money you can afford to lose.',
  newsletterNotice: 'Our newsletter has not started yet, so nothing is sent or stored.',
  newsletterSent: 'Nothing was sent: our newsletter has not started yet. Please check back later.',
  social: [
    { icon: 'facebook', label: 'Facebook', href: 'https://www.facebook.com/' },
    { icon: 'instagram', label: 'Instagram', href: 'https://www.instagram.com/' },
    { icon: 'twitter', label: 'Twitter', href: 'https://twitter.com/' },
    { icon: 'youtube', label: 'YouTube', href: 'https://www.youtube.com/' },
  ],
} as const;
