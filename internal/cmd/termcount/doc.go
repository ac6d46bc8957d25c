// Command termcount counts how often each candidate term of GLOSSARY.md occurs in the five
// client-go articles the repository is read beside, so the glossary's choices rest on counts
// anyone can reproduce. The articles are not in the repository: pass the directory that holds
// them (the five Markdown files named by title in docs/articles.md).
//
// Usage, from the repository root:
//
//	go run ./internal/cmd/termcount DIR            # a Markdown table, one row per term
//	go run ./internal/cmd/termcount -terms FILE DIR
//	go run ./internal/cmd/termcount -calques .     # the repository's Chinese files, not the articles
//
// The contract:
//
//  1. DIR's *.md files are the articles, read in name order; a file named README.md is not an
//     article and is skipped. Each article is one column, plus a total.
//  2. A term is counted in the whole text of each article, code included, since the articles'
//     code comments are Chinese prose too. A CJK term counts every occurrence as a substring,
//     so 列举 includes the 列举 inside 重新列举; the table says so. A term with ASCII letters
//     counts only whole words (not inside a longer identifier such as ListAndWatch or Lister),
//     case-sensitively, so List and list are separate rows.
//  3. The terms come from defaultTerms, grouped as in GLOSSARY.md, or from -terms: one term a
//     line, "## heading" lines starting a group, "#" lines ignored.
//  4. The output is deterministic for the same files: groups and terms in list order.
//  5. With -calques ROOT the command counts instead the calques GLOSSARY.md rejects (calques in
//     calques.go) in every *.zh-CN.md file under ROOT outside dot directories, one row per
//     calque with the files that hold it. A calque's allowed compounds (跳过, 初始同步, …) are
//     masked before counting. The run fails (exit 1) while any count is above 0;
//     TestRepositoryHasNoCalques keeps the repository at 0.
package main
