package content

// Snapshot is content built outside the store, by an import or a template,
// ready to become a revision: a tree, the documents its pages and reusable
// contents point at by hash, and the bytes of its files by blob hash.
type Snapshot struct {
	Tree      *Tree
	Documents map[Hash]*Document
	Blobs     map[Hash][]byte
}

// NewSnapshot returns an empty snapshot with its maps allocated.
func NewSnapshot() *Snapshot {
	return &Snapshot{Tree: &Tree{Pages: []*Page{}}, Documents: map[Hash]*Document{}, Blobs: map[Hash][]byte{}}
}

// AddDocument records doc (normalized first) and returns its hash; a nil or
// empty document is not stored and hashes to the zero Hash.
func (s *Snapshot) AddDocument(doc *Document) Hash {
	if doc == nil {
		return Hash{}
	}
	doc.Normalize()
	if len(doc.Nodes) == 0 {
		return Hash{}
	}
	h := HashDocument(doc)
	s.Documents[h] = doc
	return h
}

// AddBlob records the bytes of a file and returns their hash.
func (s *Snapshot) AddBlob(b []byte) Hash {
	h := HashBlob(b)
	s.Blobs[h] = b
	return h
}

// HashBlob returns the content address of a file's bytes.
func HashBlob(b []byte) Hash { return sum("folio.blob.v1", b) }
