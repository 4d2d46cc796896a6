package app

// FileURLWindow identifies the signed download URLs FileURL gives now:
// they change only when it does (every fileURLLifetime), so the reader
// keeps it in the keys of the HTML it caches.
func (c *Content) FileURLWindow() int64 { return c.urls.now.Truncate(fileURLLifetime).Unix() }
