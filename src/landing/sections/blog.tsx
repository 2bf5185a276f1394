import { CAROUSEL_AUTOPLAY_MS } from '../../shared/landing.ts';
import { BLOG, type BlogTeaser } from '../content.ts';
import { Icon } from '../icons.tsx';
import { BLOG_IMAGE_WIDTHS, blogImageHeight } from '../images/blog-images.ts';

// Slide widths follow landing.css: one slide below 768 px, two from 768 px, four from 1024 px, in a
// container at most 1160 px wide with 16 px (phone) or 24 px padding and 16 px between slides.
const SIZES = '(min-width: 1024px) 266px, (min-width: 768px) calc(50vw - 32px), calc(100vw - 32px)';

const longDate = (iso: string) =>
  new Date(iso).toLocaleDateString('en-US', { dateStyle: 'long', timeZone: 'UTC' });

/**
 * The blog carousel (WAI-ARIA APG "carousel"): a native scroll-snap strip, so it swipes and scrolls
 * without script; the enhance script adds autoplay every 3 s with looping, previous/next buttons and
 * the rotation control. Autoplay stops on hover and when focus enters, and does not start for
 * visitors who prefer reduced motion.
 */
export function BlogCarousel() {
  const count = BLOG.posts.length;
  return (
    <section id="blogs" className="section blogs" aria-labelledby="blogs-title">
      <div className="container">
        <div className="section-head">
          <p className="eyebrow">Blogs</p>
          <h2 id="blogs-title">{BLOG.title}</h2>
          <p className="lead">{BLOG.lead}</p>
        </div>
        <section
          className="carousel"
          aria-roledescription="carousel"
          aria-label="Blog posts"
          data-carousel
          data-autoplay-ms={CAROUSEL_AUTOPLAY_MS}
        >
          <div className="carousel-controls">
            <button type="button" className="carousel-button" data-carousel-toggle>
              <Icon name="pause" size={20} className="carousel-stop" />
              <Icon name="play" size={20} className="carousel-start" />
              <span className="visually-hidden" data-carousel-toggle-label>
                Stop automatic slide show
              </span>
            </button>
            <button type="button" className="carousel-button" aria-controls="blog-track" data-carousel-prev>
              <Icon name="prev" size={20} />
              <span className="visually-hidden">Previous posts</span>
            </button>
            <button type="button" className="carousel-button" aria-controls="blog-track" data-carousel-next>
              <Icon name="next" size={20} />
              <span className="visually-hidden">Next posts</span>
            </button>
          </div>
          <div className="carousel-track" id="blog-track" aria-live="off" data-carousel-track>
            {BLOG.posts.map((post, i) => (
              <BlogSlide key={post.id} post={post} position={i + 1} count={count} />
            ))}
          </div>
        </section>
      </div>
    </section>
  );
}

function BlogSlide({ post, position, count }: { post: BlogTeaser; position: number; count: number }) {
  const src = (width: number) => `/src/landing/images/${post.image}-${width}.webp`;
  const small = BLOG_IMAGE_WIDTHS[0];
  return (
    // biome-ignore lint/a11y/useSemanticElements: APG's slide is a group; a <fieldset> is for form controls.
    <div
      className="slide"
      role="group"
      aria-roledescription="slide"
      aria-label={`${position} of ${count}`}
      data-slide
    >
      <img
        className="slide-image"
        src={src(small)}
        srcSet={BLOG_IMAGE_WIDTHS.map((w) => `${src(w)} ${w}w`).join(', ')}
        sizes={SIZES}
        width={small}
        height={blogImageHeight(small)}
        loading="lazy"
        decoding="async"
        alt=""
      />
      <div className="slide-body">
        <p className="slide-meta">
          <span className={`category category-${post.category.toLowerCase()}`}>{post.category}</span>
          <time dateTime={post.date}>{longDate(post.date)}</time>
        </p>
        <h3>{post.title}</h3>
        <p>{post.description}</p>
        <a className="read-more" href="/login">
          Read More<span className="visually-hidden">: {post.title}</span>
          <Icon name="next" size={16} />
        </a>
      </div>
    </div>
  );
}
