package transcript

import (
	"container/list"
	"hash/maphash"
	"sync"
)

// BodyCacheBytes bounds the rendered message bodies the process keeps: a
// message is immutable once posted, so the live page, its /parts and the
// HTML export render each text once and then serve it from here. The
// rendered HTML of ordinary Markdown is about one and a half times its
// text, so this holds every message of a few hundred ordinary rooms;
// the least recently used go first.
const BodyCacheBytes = 64 << 20

// bodies is the process's rendered message bodies, keyed by their text's
// length and two 64-bit hashes of it under seeds chosen at random when the
// process starts (hash/maphash: about ten times faster than SHA-256, which
// was most of a cached view of a room of large messages; no text can be
// made to collide with another without knowing the seeds). A render of
// the same text by two callers at once may run twice; both store the same
// result.
var bodies = newBodyCache(BodyCacheBytes)

func newBodyCache(maxBytes int) *Cache[bodyKey] { return NewCache[bodyKey](maxBytes) }

// bodyKey identifies a text.
type bodyKey struct {
	h1, h2 uint64
	n      int
}

var bodySeeds = [2]maphash.Seed{maphash.MakeSeed(), maphash.MakeSeed()}

// keyOf is text's key in the cache.
func keyOf(text string) bodyKey {
	return bodyKey{maphash.String(bodySeeds[0], text), maphash.String(bodySeeds[1], text), len(text)}
}

// Cache holds renders (the HTML of a message, its terminal form at a
// width) by a key of the caller's, bounded by their bytes: the least
// recently used go first. Safe for concurrent use. The HTML bodies here
// and the terminal's renders (tui/mdrender) each keep one.
type Cache[K comparable] struct {
	mu       sync.Mutex
	entries  map[K]*list.Element
	lru      *list.List // of *cacheEntry[K], most recent first
	bytes    int
	maxBytes int
}

type cacheEntry[K comparable] struct {
	key K
	out string
}

// cacheEntryOverhead is what an entry costs beyond its text: the key, the
// list element and the map slot, roughly.
const cacheEntryOverhead = 160

// NewCache is a Cache of at most maxBytes.
func NewCache[K comparable](maxBytes int) *Cache[K] {
	return &Cache[K]{entries: map[K]*list.Element{}, lru: list.New(), maxBytes: max(maxBytes, 0)}
}

// Get is the render kept under key, if any.
func (c *Cache[K]) Get(key K) (string, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.entries[key]
	if !ok {
		return "", false
	}
	c.lru.MoveToFront(el)
	return el.Value.(*cacheEntry[K]).out, true
}

// Put keeps out under key, forgetting the least recently used past the
// bound; a render larger than the whole bound is not kept.
func (c *Cache[K]) Put(key K, out string) {
	size := len(out) + cacheEntryOverhead
	c.mu.Lock()
	defer c.mu.Unlock()
	if size > c.maxBytes {
		return
	}
	if el, ok := c.entries[key]; ok {
		c.lru.MoveToFront(el)
		return
	}
	c.entries[key] = c.lru.PushFront(&cacheEntry[K]{key: key, out: out})
	c.bytes += size
	for c.bytes > c.maxBytes {
		el := c.lru.Back()
		e := el.Value.(*cacheEntry[K])
		c.lru.Remove(el)
		delete(c.entries, e.key)
		c.bytes -= len(e.out) + cacheEntryOverhead
	}
}

// Size is the bytes the cache holds and its number of entries.
func (c *Cache[K]) Size() (bytes, entries int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.bytes, len(c.entries)
}
