// The blog teasers' pictures: drawn as SVG by make-blog-images.ts and committed as WebP, one file per
// width, at 16:10. The carousel shows them 232 to 380 CSS pixels wide, so 400 w serves one-density
// screens and 800 w the rest.

export const BLOG_IMAGE_WIDTHS = [400, 800] as const;
export const blogImageHeight = (width: number) => Math.round((width * 10) / 16);
