// Package mdrender renders the Markdown that agents and personas write for
// the terminal screens, with Glamour.
//
// Agent text is untrusted: Renderer.Render sanitizes it before rendering
// (transcript.SanitizeTerminal: escape sequences such as clear screen, set
// title, OSC 52 clipboard writes or hyperlinks are shown as text and never
// reach the terminal), and strips the hyperlinks Glamour itself adds around
// links, whose address stays visible. What the author typed is what the
// screen shows: raw HTML (`Store<T>`, `<script>`), which Glamour drops, is
// shown as text, character references (`&amp;`) as typed, and no line is
// wider than the width asked for, so nothing is cut at the right edge.
//
// Markdown past transcript.TooComplex (whose cost in Glamour would grow
// faster than its length: deep quotes and lists, runs of link openers, wide
// tables) is never given to Glamour: it is shown as plain text, wrapped in
// one pass, under a faint transcript.PlainNote.
//
// Glamour's TermRenderer is not safe across goroutines, so a Renderer owns
// one per width and serialises their use; a Renderer may be shared by the
// Update loop and background commands. Finished renders are cached by text
// hash and width, and Glamour's padding is trimmed, so a cached message costs
// about two to three times its text. Growing renders a text that is still
// streaming in: finished blocks once, the tail at most thirty times a second.
package mdrender
