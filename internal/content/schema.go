package content

// This file is the one table of the GitBook document schema (OpenAPI
// components DocumentBlock*, DocumentInline*, DocumentMark* and
// DocumentFragment of gitbook-api 0.143.2): which node types exist, which are
// void, and what each may contain.

// Values of the "object" property.
const (
	ObjectDocument = "document"
	ObjectBlock    = "block"
	ObjectInline   = "inline"
	ObjectText     = "text"
	ObjectLeaf     = "leaf"
	ObjectMark     = "mark"
	ObjectFragment = "fragment"
)

// Block types of the reference (DocumentBlock).
const (
	BlockParagraph        = "paragraph"
	BlockHeading1         = "heading-1"
	BlockHeading2         = "heading-2"
	BlockHeading3         = "heading-3"
	BlockListOrdered      = "list-ordered"
	BlockListUnordered    = "list-unordered"
	BlockListTasks        = "list-tasks"
	BlockListItem         = "list-item"
	BlockDivider          = "divider"
	BlockQuote            = "blockquote"
	BlockHint             = "hint"
	BlockIf               = "if"
	BlockImages           = "images"
	BlockImage            = "image"
	BlockFile             = "file"
	BlockDrawing          = "drawing"
	BlockEmbed            = "embed"
	BlockCode             = "code"
	BlockCodeLine         = "code-line"
	BlockMath             = "math"
	BlockExpandable       = "expandable"
	BlockTabs             = "tabs"
	BlockTabsItem         = "tabs-item"
	BlockTable            = "table"
	BlockOpenAPI          = "swagger"
	BlockOpenAPIOperation = "openapi-operation"
	BlockOpenAPISchemas   = "openapi-schemas"
	BlockOpenAPIWebhook   = "openapi-webhook"
	BlockContentRef       = "content-ref"
	BlockIntegration      = "integration"
	BlockReusableContent  = "reusable-content"
	BlockStepper          = "stepper"
	BlockStepperStep      = "stepper-step"
	BlockColumns          = "columns"
	BlockColumn           = "column"
)

// Inline types of the reference (DocumentInline).
const (
	InlineLink       = "link"
	InlineEmoji      = "emoji"
	InlineIcon       = "icon"
	InlineExpression = "expression"
	InlineMath       = "inline-math"
	InlineImage      = "inline-image"
	InlineAnnotation = "annotation"
	InlineMention    = "mention"
	InlineButton     = "button"
)

// Mark types of the reference (DocumentTextMark).
const (
	MarkBold          = "bold"
	MarkItalic        = "italic"
	MarkCode          = "code"
	MarkKeyboard      = "keyboard"
	MarkStrikethrough = "strikethrough"
	MarkColor         = "color"
	MarkSuperscript   = "superscript"
	MarkSubscript     = "subscript"
)

// Fragment names of the reference.
const (
	FragmentCaption         = "caption"
	FragmentExpandableTitle = "expandable-title"
	FragmentExpandableBody  = "expandable-body"
	FragmentAnnotationBody  = "annotation-body"
)

// Limits on one document, checked by Validate.
const (
	MaxDepth      = 32        // levels of nested nodes; top-level blocks are level 1
	MaxNodes      = 100_000   // blocks, inlines and text nodes, fragments included
	MaxTextLength = 5_000_000 // characters (runes) over all text leaves
)

// childSet lists what a container may hold: block and inline type names,
// plus the pseudo-types textChild (text nodes) and anyBlock (any known block).
type childSet map[string]bool

const (
	textChild = "#text"
	anyBlock  = "#block"
)

// fragmentSpec is one kind of fragment a node may carry.
type fragmentSpec struct {
	name     string // matched against the fragment's "fragment" or "type"; "" matches any
	children childSet
	min, max int // bounds on the fragment's nodes; max 0 means unbounded
}

// nodeSpec describes one block or inline type.
type nodeSpec struct {
	object string // ObjectBlock or ObjectInline
	void   bool
	// writeVoid is set for the non-void types whose schema requires isVoid,
	// so that "isVoid": false is written for them.
	writeVoid bool
	// requiresFragments is set where the schema requires "fragments".
	requiresFragments bool
	children          childSet
	fragments         []fragmentSpec
}

func set(groups ...[]string) childSet {
	s := childSet{}
	for _, g := range groups {
		for _, t := range g {
			s[t] = true
		}
	}
	return s
}

func list(types ...string) []string { return types }

// Groups of the reference: DocumentBlocksEssentials, DocumentBlocksTopLevels
// and DocumentInline.
var (
	essentials = list(BlockParagraph, BlockHeading1, BlockHeading2, BlockHeading3,
		BlockListOrdered, BlockListUnordered, BlockListTasks, BlockDivider)
	// topLevels follows the reference exactly, so "columns" and "if" are
	// refused at the top level: the reference lists them only in DocumentBlock,
	// which only table fragments accept. Accepting more would let Folio serve
	// documents that break the published schema.
	topLevels = append(list(BlockQuote, BlockHint, BlockImages, BlockFile, BlockDrawing,
		BlockEmbed, BlockCode, BlockMath, BlockExpandable, BlockTabs, BlockTable,
		BlockOpenAPI, BlockOpenAPIOperation, BlockOpenAPISchemas, BlockOpenAPIWebhook,
		BlockContentRef, BlockIntegration, BlockReusableContent, BlockStepper), essentials...)
	inlines = list(InlineLink, InlineEmoji, InlineIcon, InlineExpression, InlineMath,
		InlineImage, InlineAnnotation, InlineMention, InlineButton)
	textOnly = list(textChild)
	// stepContents is what tabs-item and stepper-step hold.
	stepContents = append(list(BlockContentRef, BlockCode, BlockEmbed, BlockFile,
		BlockImages, BlockDrawing, BlockHint, BlockQuote, BlockMath, BlockIntegration), essentials...)
)

// rootChildren is what a document's nodes may be.
var rootChildren = set(topLevels)

// voidChildren lets void nodes keep the empty text child that Slate-based
// editors write into them; anything else inside a void node is refused.
var voidChildren = set(textOnly)

func blockSpec(children childSet) nodeSpec { return nodeSpec{object: ObjectBlock, children: children} }
func voidBlock() nodeSpec {
	return nodeSpec{object: ObjectBlock, void: true, children: voidChildren}
}
func voidInline() nodeSpec {
	return nodeSpec{object: ObjectInline, void: true, children: voidChildren}
}

// nodeTypes is the table of every block and inline type of the reference.
var nodeTypes = map[string]nodeSpec{
	BlockParagraph:     blockSpec(set(inlines, textOnly)),
	BlockHeading1:      blockSpec(set(inlines, textOnly)),
	BlockHeading2:      blockSpec(set(inlines, textOnly)),
	BlockHeading3:      blockSpec(set(inlines, textOnly)),
	BlockListOrdered:   blockSpec(set(list(BlockListItem))),
	BlockListUnordered: blockSpec(set(list(BlockListItem))),
	BlockListTasks:     blockSpec(set(list(BlockListItem))),
	BlockListItem:      blockSpec(set(essentials, list(BlockCode, BlockHint, BlockQuote, BlockMath, BlockTable))),
	BlockDivider:       voidBlock(),
	BlockQuote:         blockSpec(set(essentials, list(BlockQuote))),
	BlockHint:          blockSpec(set(essentials)),
	BlockIf:            blockSpec(set(topLevels)),
	BlockImages:        {object: ObjectBlock, writeVoid: true, children: set(list(BlockImage))},
	BlockImage: {object: ObjectBlock, void: true, requiresFragments: true, children: voidChildren,
		fragments: []fragmentSpec{{name: FragmentCaption, children: set(list(BlockParagraph))}}},
	BlockFile:     voidBlock(),
	BlockDrawing:  voidBlock(),
	BlockEmbed:    voidBlock(),
	BlockCode:     blockSpec(set(list(BlockCodeLine))),
	BlockCodeLine: blockSpec(set(textOnly, list(InlineAnnotation, InlineExpression))),
	BlockMath:     voidBlock(),
	BlockExpandable: {object: ObjectBlock, void: true, requiresFragments: true, children: voidChildren,
		fragments: []fragmentSpec{
			{name: FragmentExpandableTitle, children: set(list(BlockParagraph)), min: 1, max: 1},
			{name: FragmentExpandableBody, min: 1, children: set(essentials,
				list(BlockImages, BlockCode, BlockTable, BlockHint, BlockQuote, BlockReusableContent))},
		}},
	BlockTabs:     blockSpec(set(list(BlockTabsItem))),
	BlockTabsItem: blockSpec(set(stepContents)),
	// Table cells are fragments holding any block (DocumentFragment).
	BlockTable: {object: ObjectBlock, void: true, requiresFragments: true, children: voidChildren,
		fragments: []fragmentSpec{{children: set(list(anyBlock))}}},
	BlockOpenAPI:          voidBlock(),
	BlockOpenAPIOperation: voidBlock(),
	BlockOpenAPISchemas:   voidBlock(),
	BlockOpenAPIWebhook:   voidBlock(),
	BlockContentRef:       voidBlock(),
	BlockIntegration:      voidBlock(),
	BlockReusableContent:  voidBlock(),
	BlockStepper:          blockSpec(set(list(BlockStepperStep))),
	BlockStepperStep:      blockSpec(set(stepContents)),
	BlockColumns:          {object: ObjectBlock, writeVoid: true, children: set(list(BlockColumn))},
	BlockColumn: blockSpec(set(essentials, list(BlockImages, BlockCode, BlockHint, BlockContentRef,
		BlockDrawing, BlockEmbed, BlockFile, BlockIntegration, BlockMath, BlockQuote, BlockTable))),

	InlineLink:       {object: ObjectInline, children: set(textOnly, list(InlineImage))},
	InlineEmoji:      voidInline(),
	InlineIcon:       voidInline(),
	InlineExpression: voidInline(),
	InlineMath:       voidInline(),
	InlineImage:      voidInline(),
	InlineAnnotation: {object: ObjectInline, writeVoid: true, requiresFragments: true, children: set(textOnly),
		fragments: []fragmentSpec{{name: FragmentAnnotationBody, min: 1,
			children: set(essentials, list(BlockCode))}}},
	InlineMention: voidInline(),
	InlineButton:  voidInline(),
}

// markTypes is the set of mark types of the reference.
var markTypes = set(list(MarkBold, MarkItalic, MarkCode, MarkKeyboard, MarkStrikethrough,
	MarkColor, MarkSuperscript, MarkSubscript))

// lookup returns the spec of a block or inline type, and false for a type the
// reference does not define for that object.
func lookup(object, typ string) (nodeSpec, bool) {
	s, ok := nodeTypes[typ]
	if !ok || s.object != object {
		return nodeSpec{}, false
	}
	return s, true
}

// allows reports whether a container with these children accepts n.
func (s childSet) allows(n *Node) bool {
	switch n.Object {
	case ObjectText:
		return s[textChild]
	case ObjectBlock:
		return s[n.Type] || s[anyBlock]
	}
	return s[n.Type]
}

// accepts reports whether the set holds any node of the given object.
func (s childSet) accepts(object string) bool {
	for t := range s {
		switch {
		case t == textChild:
			if object == ObjectText {
				return true
			}
		case t == anyBlock:
			if object == ObjectBlock {
				return true
			}
		case nodeTypes[t].object == object:
			return true
		}
	}
	return false
}

// match returns the spec of the fragment named by its "fragment" or "type".
func (s nodeSpec) match(f *Fragment) (fragmentSpec, bool) {
	for _, fs := range s.fragments {
		if fs.name == "" || fs.name == f.Fragment || fs.name == f.Type {
			return fs, true
		}
	}
	return fragmentSpec{}, false
}

// IsVoidType reports whether the reference defines typ as a void block or
// inline, one that holds data but no child nodes (divider, image, emoji...).
func IsVoidType(typ string) bool { return nodeTypes[typ].void }

// BlockTypes returns the block types of the reference, sorted.
func BlockTypes() []string { return typesOf(ObjectBlock) }

// InlineTypes returns the inline types of the reference, sorted.
func InlineTypes() []string { return typesOf(ObjectInline) }

// MarkTypes returns the mark types of the reference, sorted.
func MarkTypes() []string { return sortedKeys(markTypes) }

func typesOf(object string) []string {
	s := childSet{}
	for t, spec := range nodeTypes {
		if spec.object == object {
			s[t] = true
		}
	}
	return sortedKeys(s)
}
