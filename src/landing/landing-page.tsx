import { IconSprite } from './icons.tsx';
import { About, HowItWorks, WhyChoose } from './sections/about.tsx';
import { BlogCarousel } from './sections/blog.tsx';
import { Contact, SiteFooter } from './sections/contact.tsx';
import { Faq } from './sections/faq.tsx';
import { Process, StatsBanner } from './sections/steps.tsx';
import { Hero, RiskBar, SiteHeader } from './sections/top.tsx';

/** The landing page's <body>, in the spec's order: disclaimer, header, then the sections, footer last. */
export function LandingPage({ buildYear }: { buildYear: number }) {
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <IconSprite />
      <RiskBar />
      <SiteHeader />
      <main id="main">
        <Hero />
        <About />
        <WhyChoose />
        <HowItWorks />
        <StatsBanner />
        <Process />
        <Faq />
        <BlogCarousel />
        <Contact />
      </main>
      <SiteFooter buildYear={buildYear} />
    </>
  );
}
