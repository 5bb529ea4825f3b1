package mdrender

import (
	"hash/maphash"
	"strings"
	"sync"

	"charm.land/glamour/v2"
	"charm.land/glamour/v2/ansi"
	"charm.land/glamour/v2/styles"

	"github.com/roundtable-dev/roundtable/room/transcript"
	"github.com/roundtable-dev/roundtable/tui/internal/cells"
)

// DefaultCacheBytes bounds the finished renders a Renderer keeps. Rendered
// text is compacted to about two to three times its Markdown, so this holds
// every message of any ordinary room; a ten-thousand-message room keeps the
// most recently shown ones.
const DefaultCacheBytes = 48 << 20

// MinWidth is the narrowest width a Renderer wraps to; narrower requests
// are rendered at MinWidth.
const MinWidth = 10

// maxRenderers bounds how many widths keep a Glamour renderer; a window
// dragged through many sizes would otherwise leave one per width. A few
// screens' widths, each with the narrower width its overflow fix may use,
// fit.
const maxRenderers = 8

// maxNarrowerTries and maxNarrowing bound how often, and by how many
// cells, a render that overflows its width is wrapped again narrower
// before its wide lines are split instead.
const (
	maxNarrowerTries = 3
	maxNarrowing     = 4
)

// Renderer renders untrusted Markdown for the terminal with Glamour. It is
// safe for concurrent use: Glamour's TermRenderer is not, so the Renderer
// owns one per width and uses each under its lock. Finished renders are
// cached by text and width.
type Renderer struct {
	dark bool
	seed maphash.Seed

	mu       sync.Mutex
	byWidth  map[int]*glamour.TermRenderer
	widths   []int // byWidth's keys, oldest first
	cache    *transcript.Cache[cacheKey]
	maxBytes int // the cache's bound

	glamourRenders int // texts given to Glamour, for tests
}

type cacheKey struct {
	hash  uint64
	size  int
	width int
}

// Option configures a Renderer.
type Option func(*Renderer)

// New returns a Renderer with Glamour's dark style (dark) or light style,
// without document margins, so the caller places the text.
func New(dark bool, opts ...Option) *Renderer {
	r := &Renderer{
		dark:     dark,
		seed:     maphash.MakeSeed(),
		byWidth:  map[int]*glamour.TermRenderer{},
		maxBytes: DefaultCacheBytes,
	}
	for _, o := range opts {
		o(r)
	}
	r.cache = transcript.NewCache[cacheKey](r.maxBytes)
	return r
}

// Dark reports whether the Renderer uses the dark style.
func (r *Renderer) Dark() bool { return r.dark }

// Render renders markdown wrapped to width columns. The text is sanitized
// first (transcript.SanitizeTerminal), so escape sequences in it are shown
// as text and never reach the terminal; raw HTML and character references
// are shown as typed (see literal); no line of the output is wider than
// width, so a screen never has to cut one. The output carries Glamour's
// colours only, no hyperlinks, no trailing padding, and no leading or
// trailing blank lines. It never fails: should Glamour fail, the sanitized
// text is returned wrapped. Repeated calls with the same text and width are
// served from the cache.
func (r *Renderer) Render(markdown string, width int) string {
	width = max(width, MinWidth)
	key := r.key(markdown, width)
	if out, ok := r.cache.Get(key); ok {
		return out
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if out, ok := r.cache.Get(key); ok { // rendered while this call waited
		return out
	}
	out := r.renderLocked(markdown, width)
	r.cache.Put(key, out)
	return out
}

// Cached returns the render of markdown at width when it is in the cache,
// without rendering.
func (r *Renderer) Cached(markdown string, width int) (string, bool) {
	width = max(width, MinWidth)
	key := r.key(markdown, width)
	return r.cache.Get(key)
}

// CacheBytes is the size of the cached output.
func (r *Renderer) CacheBytes() int {
	b, _ := r.cache.Size()
	return b
}

// renderUncached renders without touching the cache (for the growing tail,
// which changes at every call).
func (r *Renderer) renderUncached(markdown string, width int) string {
	width = max(width, MinWidth)
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.renderLocked(markdown, width)
}

func (r *Renderer) key(markdown string, width int) cacheKey {
	return cacheKey{hash: maphash.String(r.seed, markdown), size: len(markdown), width: width}
}

func (r *Renderer) renderLocked(markdown string, width int) string {
	safe := transcript.SanitizeTerminal(markdown)
	if strings.TrimSpace(safe) == "" {
		return ""
	}
	if transcript.TooComplex(safe) {
		return renderPlain(safe, width)
	}
	r.glamourRenders++
	src := literal(safe)
	wrap := width
	for try := 0; ; try++ {
		tr, err := r.termRendererLocked(wrap)
		var out string
		if err == nil {
			out, err = tr.Render(src)
		}
		if err != nil {
			// Glamour failed: show the text as it is, wrapped.
			return strings.TrimRight(cells.Wrap(safe, width), "\n")
		}
		out = compact(out)
		over := cells.Widest(out) - width
		if over <= 0 {
			return out
		}
		// Glamour wraps lists, quotes and code with a wrapper that lets a
		// word ending in punctuation run one or more cells past the edge
		// (charmbracelet/x#785): wrapping that much narrower flows the
		// text so that it fits. Past a few tries, the lines still too
		// wide are split.
		if try == maxNarrowerTries || over > maxNarrowing || wrap-over < MinWidth {
			return strings.Join(cells.SplitAll(strings.Split(out, "\n"), width), "\n")
		}
		wrap -= over
	}
}

func (r *Renderer) termRendererLocked(width int) (*glamour.TermRenderer, error) {
	if tr, ok := r.byWidth[width]; ok {
		return tr, nil
	}
	tr, err := glamour.NewTermRenderer(
		glamour.WithStyles(styleConfig(r.dark)),
		glamour.WithWordWrap(width),
		// Links in tables are shown where they are, as everywhere else,
		// rather than as numbered footnotes.
		glamour.WithInlineTableLinks(true),
	)
	if err != nil {
		return nil, err
	}
	if len(r.widths) >= maxRenderers {
		delete(r.byWidth, r.widths[0])
		r.widths = r.widths[1:]
	}
	r.byWidth[width] = tr
	r.widths = append(r.widths, width)
	return tr, nil
}

// styleConfig is Glamour's dark or light style without the document's
// margin and blank lines, so a render can sit inside a column or a panel.
func styleConfig(dark bool) ansi.StyleConfig {
	cfg := styles.LightStyleConfig
	if dark {
		cfg = styles.DarkStyleConfig
	}
	zero := uint(0)
	cfg.Document.Margin = &zero
	cfg.Document.BlockPrefix = ""
	cfg.Document.BlockSuffix = ""
	// Headings keep their colour and weight but lose Glamour's "## "
	// markers, which cost a narrow column its width.
	for _, h := range []*ansi.StyleBlock{&cfg.H2, &cfg.H3, &cfg.H4, &cfg.H5, &cfg.H6} {
		h.Prefix = ""
	}
	return cfg
}

// Inline makes an untrusted value safe to show on one line (an agent label,
// a topic, a reason): escape sequences become visible text, and line breaks,
// tabs and runs of spaces become single spaces.
func Inline(s string) string {
	return strings.Join(strings.Fields(transcript.SanitizeTerminal(s)), " ")
}
