/*
 * Spark SQL expressions as Spark 4.2 documents them (sql-ref-syntax, sql-ref-literals, sql-ref-operators):
 * literals, column references, operators with Spark's precedence, predicates, CASE, CAST and ::,
 * function calls, and select items with aliases and *. Keywords are case-insensitive.
 *
 * And a query (sql-ref-syntax-qry-select): SELECT ... FROM ... JOIN ... WHERE, with the clauses a query
 * may have beyond that (WITH, set operators, GROUP BY, HAVING, ORDER BY, LIMIT, subqueries) parsed so that
 * they are refused by name and position rather than as a syntax error. No keyword is reserved in expressions
 * (a column may be named `left`, `order` or `end`), as in Spark's default mode; a table alias written without
 * AS is a plain identifier, so that `FROM source s LEFT JOIN` reads as Spark reads it.
 */
grammar SparkExpr;

options { caseInsensitive = true; }

singleExpression : expression EOF ;

selectItem : namedItem EOF ;

selectList : namedItem (COMMA namedItem)* EOF ;

aggregateCall : functionName LPAREN (ASTERISK | expression (COMMA expression)*)? RPAREN withinGroup? EOF ;

/** An ordered-set aggregate's ordering: percentile_cont(0.5) WITHIN GROUP (ORDER BY x DESC); listagg's of several keys. */
withinGroup : WITHIN GROUP LPAREN ORDER BY sortItem (COMMA sortItem)* RPAREN ;

sqlStatement : query SEMICOLON* EOF ;

query : withClause? queryTerm (setOperator queryTerm)* queryOrganization ;

withClause : WITH identifier AS? LPAREN query RPAREN (COMMA identifier AS? LPAREN query RPAREN)* ;

setOperator : kind=(UNION | EXCEPT | INTERSECT) (ALL | DISTINCT)? ;

queryTerm
    : querySpecification                             #plainQuery
    | LPAREN query RPAREN                            #parenthesizedQuery
    ;

querySpecification
    : SELECT quantifier=(DISTINCT | ALL)? sqlSelectItem (COMMA sqlSelectItem)*
      (FROM relation (COMMA (tableFunction | relation))* lateralView*)?
      (WHERE where=expression)?
      (group=GROUP BY expression (COMMA expression)*)?
      (having=HAVING expression)?
    ;

queryOrganization
    : (order=ORDER BY sortItem (COMMA sortItem)*)?
      (limit=LIMIT (limitAll=ALL | expression))?
      (offset=OFFSET expression)?
    ;

sortItem : expression (ASC | DESC)? (NULLS (FIRST | LAST))? ;

sqlSelectItem
    : ASTERISK                                       #sqlSelectAll
    | qualifiedName DOT ASTERISK                     #sqlSelectAllOf
    | expression (AS? (alias=identifier | identifierList))?   #sqlSelectExpression
    ;

/** A generator's column names, as Spark's multi-alias writes them: {@code explode(m) AS (k, v)}. */
identifierList : LPAREN identifier (COMMA identifier)* RPAREN ;

/** Spark's LATERAL VIEW [OUTER] generator(args) table [AS] column, ...: its rows joined to each row of the FROM. */
lateralView
    : LATERAL VIEW? OUTER? generator=functionName LPAREN (expression (COMMA expression)*)? RPAREN tblName=identifier
      (AS? colName+=identifier (COMMA colName+=identifier)*)?
    ;

/**
 * A lateral view's text, or a table function of FROM as a query's translation writes it (tableFunctionItem): the first alternative
 * wins where both read the text.
 */
lateralViewItem : tableFunctionItem EOF | lateralView EOF ;

/**
 * A table function of FROM as SqlTranslator writes it: {@code [LATERAL] [LEFT] explode(tags) t [AS a, b] [ON condition]}, LATERAL
 * where its arguments may read the row's columns, LEFT for a LEFT OUTER JOIN LATERAL, ON for a join's condition.
 */
tableFunctionItem
    : lateral=LATERAL? left=LEFT? generator=functionName LPAREN (expression (COMMA expression)*)? RPAREN tblName=identifier
      (AS colName+=identifier (COMMA colName+=identifier)*)? (ON on=expression)?
    ;

/** Spark's table function after a comma of FROM: {@code LATERAL explode(tags) [AS] t[(tag)]}, joined to each row. */
tableFunction : LATERAL? functionTable ;

/** A table function's call and its alias, {@code explode(tags) [AS] t[(tag)]}. */
functionTable
    : generator=functionName LPAREN (expression (COMMA expression)*)? RPAREN (AS? tblName=strictIdentifier identifierList?)?
    ;

relation : relationPrimary joinRelation* ;

/** A join of a Delta table, or of a table function ({@code JOIN LATERAL explode(s.tags) t}): Spark's lateral join. */
joinRelation
    : natural=NATURAL? joinType JOIN (lateral=LATERAL? function=functionTable | lateral=LATERAL? right=relationPrimary) joinCriteria? ;

joinType
    : INNER?
    | CROSS
    | LEFT OUTER?
    | LEFT? SEMI
    | LEFT? ANTI
    | RIGHT OUTER?
    | FULL OUTER?
    ;

joinCriteria
    : ON expression                                                  #joinOn
    | USING LPAREN identifier (COMMA identifier)* RPAREN             #joinUsing
    ;

relationPrimary
    : qualifiedName tableAlias                       #tableName
    | LPAREN query RPAREN tableAlias                 #aliasedQuery
    | LPAREN relation RPAREN tableAlias              #aliasedRelation
    ;

tableAlias : (AS identifier | strictIdentifier)? ;

strictIdentifier : IDENTIFIER | BACKQUOTED_IDENTIFIER ;

namedItem
    : ASTERISK                                       #selectAll
    | qualifiedName DOT ASTERISK                     #selectAllOf
    | expression (AS? (alias=identifier | identifierList))?   #selectExpression
    ;

expression : booleanExpression ;

booleanExpression
    : NOT booleanExpression                          #logicalNot
    | valueExpression predicate?                     #predicated
    | left=booleanExpression AND right=booleanExpression   #logicalAnd
    | left=booleanExpression OR right=booleanExpression    #logicalOr
    ;

predicate
    : NOT? BETWEEN lower=valueExpression AND upper=valueExpression                        #between
    | NOT? IN LPAREN query RPAREN                                                          #inSubquery
    | NOT? IN LPAREN expression (COMMA expression)* RPAREN                                 #inList
    | NOT? kind=(LIKE | ILIKE) quantifier=(ANY | SOME | ALL) LPAREN (expression (COMMA expression)*)? RPAREN  #likeQuantified
    | NOT? kind=(LIKE | ILIKE | RLIKE | REGEXP) pattern=valueExpression (ESCAPE escape=STRING)?   #like
    | IS NOT? NULL                                                                         #isNull
    | IS NOT? value=(TRUE | FALSE)                                                         #isBoolean
    | IS NOT? DISTINCT FROM right=valueExpression                                          #isDistinct
    ;

valueExpression
    : primaryExpression                                                           #primary
    | op=(MINUS | PLUS | TILDE) valueExpression                                   #unary
    | left=valueExpression op=(ASTERISK | SLASH | PERCENT | DIV) right=valueExpression   #multiplicative
    | left=valueExpression op=(PLUS | MINUS | CONCAT_PIPE) right=valueExpression  #additive
    | left=valueExpression shift=shiftOperator right=valueExpression              #bitwise
    | left=valueExpression op=AMPERSAND right=valueExpression                     #bitwise
    | left=valueExpression op=HAT right=valueExpression                           #bitwise
    | left=valueExpression op=PIPE right=valueExpression                          #bitwise
    | left=valueExpression op=comparisonOperator right=valueExpression            #comparison
    ;

comparisonOperator : EQ | EQ2 | NEQ | NEQJ | LT | LTE | GT | GTE | NSEQ ;

// <<, >> and >>> as Spark 4.2 reads them, made of the < and > tokens (so that ARRAY<ARRAY<INT>> still closes); no space between
shiftOperator : LT LT | GT GT GT | GT GT ;

primaryExpression
    : params+=identifier ARROW body=expression                                     #lambda
    | LPAREN params+=identifier (COMMA params+=identifier)* RPAREN ARROW body=expression   #lambda
    | CASE whenClause+ (ELSE elseExpression=expression)? END                      #searchedCase
    | CASE value=expression whenClause+ (ELSE elseExpression=expression)? END     #simpleCase
    | name=(CAST | TRY_CAST) LPAREN expression AS dataType RPAREN                  #cast
    | constant                                                                     #literal
    | {_input.LT(1).getText().equalsIgnoreCase("extract")}? functionName LPAREN field=identifier FROM source=valueExpression RPAREN  #extract
    | {_input.LT(1).getText().equalsIgnoreCase("trim")}? functionName LPAREN
        ({_input.LT(1).getText().matches("(?i)both|leading|trailing")}? trimOption=identifier)? trimStr=valueExpression? FROM srcStr=valueExpression RPAREN  #trimFrom
    | {_input.LT(1).getText().equalsIgnoreCase("overlay")}? functionName LPAREN input=valueExpression
        {_input.LT(1).getText().equalsIgnoreCase("placing")}? identifier replace=valueExpression FROM position=valueExpression
        ({_input.LT(1).getText().equalsIgnoreCase("for")}? identifier length=valueExpression)? RPAREN  #overlayPlacing
    | functionName LPAREN (DISTINCT? expression (COMMA expression)*)? RPAREN withinGroup?  #functionCall
    | functionName LPAREN ASTERISK RPAREN                                          #starCall
    | identifier                                                                   #columnReference
    | base=primaryExpression DOT fieldName=fieldIdentifier                         #dereference
    | value=primaryExpression LBRACKET index=valueExpression RBRACKET              #subscript
    | LPAREN query RPAREN                                                          #subqueryExpression
    | EXISTS LPAREN query RPAREN                                                   #exists
    | LPAREN expression RPAREN                                                     #parenthesized
    | primaryExpression DOUBLE_COLON dataType                                      #castShorthand
    | base=primaryExpression COLON variantPath                                     #variantExtract
    ;

// Spark's path into a VARIANT, v:a.b[0]['c d']: variant_get(v, '$.a.b[0][''c d'']')
variantPath : (fieldIdentifier | variantBracket) (DOT fieldIdentifier | variantBracket)* ;
variantBracket : LBRACKET (STRING | INTEGER_VALUE) RBRACKET ;

whenClause : WHEN condition=expression THEN result=expression ;

constant
    : NULL                                  #nullLiteral
    | INTERVAL intervalField+               #intervalLiteral
    | typeName=identifier STRING            #typedLiteral
    | number                                #numericLiteral
    | (TRUE | FALSE)                        #booleanLiteral
    | STRING+                               #stringLiteral
    ;

number
    : MINUS? INTEGER_VALUE                  #integerLiteral
    | MINUS? BIGINT_LITERAL                 #bigintLiteral
    | MINUS? SMALLINT_LITERAL               #smallintLiteral
    | MINUS? TINYINT_LITERAL                #tinyintLiteral
    | MINUS? DECIMAL_VALUE                  #decimalLiteral
    | MINUS? BIGDECIMAL_LITERAL             #bigDecimalLiteral
    | MINUS? EXPONENT_VALUE                 #exponentLiteral
    | MINUS? DOUBLE_LITERAL                 #doubleLiteral
    | MINUS? FLOAT_LITERAL                  #floatLiteral
    ;

dataType
    : ARRAY LT dataType GT                                                  #arrayType
    | MAP LT dataType COMMA dataType GT                                     #mapType
    | STRUCT LT (structField (COMMA structField)*)? GT                       #structType
    | INTERVAL (from=identifier (TO to=identifier)?)?                       #intervalType
    | identifier (LPAREN INTEGER_VALUE (COMMA INTEGER_VALUE)* RPAREN)?      #primitiveType
    ;

intervalField : value=intervalValue unit=identifier (TO to=identifier)? ;

intervalValue : MINUS? (INTEGER_VALUE | DECIMAL_VALUE) | STRING ;

structField : identifier COLON? dataType (NOT NULL)? ;

functionName : identifier ;

qualifiedName : identifier (DOT identifier)* ;

identifier
    : IDENTIFIER                            #plainIdentifier
    | BACKQUOTED_IDENTIFIER                 #quotedIdentifier
    | nonReserved                           #keywordIdentifier
    ;

/** A field after a dot may be any word, a keyword too (`window.end`), as in Spark's default mode. */
fieldIdentifier : identifier ;

/**
 * Every keyword is also an identifier, as in Spark's default mode (spark.sql.ansi.enforceReservedKeywords false): a column
 * may be named `end` or `case` and written so (`SELECT end FROM source`, `WHERE end > 3`). Where a word could be either,
 * the alternative listed first wins, as in Spark's parser: `null`, `true` and `false` are literals, `SELECT distinct FROM t`
 * is SELECT DISTINCT of a column `FROM`, `SELECT id from FROM t` names the column `from`.
 */
nonReserved : AND | AS | BETWEEN | CASE | CAST | DISTINCT | ELSE | END | FALSE | IN | IS | LIKE | NOT | NULL | OR | REGEXP | RLIKE
    | THEN | TRUE | WHEN
    | ARRAY | MAP | STRUCT | ESCAPE | DIV | FROM | TRY_CAST | INTERVAL | TO
    | ALL | ANTI | ASC | BY | CROSS | DESC | EXCEPT | EXISTS | FIRST | FULL | GROUP | HAVING | INNER | INTERSECT | JOIN
    | LAST | LEFT | LIMIT | NATURAL | NULLS | OFFSET | ON | ORDER | OUTER | RIGHT | SELECT | SEMI | UNION | USING | WHERE | WITH | WITHIN
    | LATERAL | VIEW
    | ILIKE | ANY | SOME
    ;

AND : 'AND' ;
ARRAY : 'ARRAY' ;
AS : 'AS' ;
BETWEEN : 'BETWEEN' ;
CASE : 'CASE' ;
CAST : 'CAST' ;
DISTINCT : 'DISTINCT' ;
DIV : 'DIV' ;
ELSE : 'ELSE' ;
END : 'END' ;
ESCAPE : 'ESCAPE' ;
FALSE : 'FALSE' ;
FROM : 'FROM' ;
IN : 'IN' ;
IS : 'IS' ;
LIKE : 'LIKE' ;
ILIKE : 'ILIKE' ;
ANY : 'ANY' ;
SOME : 'SOME' ;
MAP : 'MAP' ;
NOT : 'NOT' ;
NULL : 'NULL' ;
OR : 'OR' ;
REGEXP : 'REGEXP' ;
RLIKE : 'RLIKE' ;
STRUCT : 'STRUCT' ;
THEN : 'THEN' ;
TRUE : 'TRUE' ;
TRY_CAST : 'TRY_CAST' ;
INTERVAL : 'INTERVAL' ;
TO : 'TO' ;
WHEN : 'WHEN' ;
ALL : 'ALL' ;
ANTI : 'ANTI' ;
ASC : 'ASC' ;
BY : 'BY' ;
CROSS : 'CROSS' ;
DESC : 'DESC' ;
EXCEPT : 'EXCEPT' ;
EXISTS : 'EXISTS' ;
FIRST : 'FIRST' ;
FULL : 'FULL' ;
GROUP : 'GROUP' ;
HAVING : 'HAVING' ;
INNER : 'INNER' ;
INTERSECT : 'INTERSECT' ;
LATERAL : 'LATERAL' ;
VIEW : 'VIEW' ;
JOIN : 'JOIN' ;
LAST : 'LAST' ;
LEFT : 'LEFT' ;
LIMIT : 'LIMIT' ;
NATURAL : 'NATURAL' ;
NULLS : 'NULLS' ;
OFFSET : 'OFFSET' ;
ON : 'ON' ;
ORDER : 'ORDER' ;
OUTER : 'OUTER' ;
RIGHT : 'RIGHT' ;
SELECT : 'SELECT' ;
SEMI : 'SEMI' ;
UNION : 'UNION' ;
USING : 'USING' ;
WHERE : 'WHERE' ;
WITH : 'WITH' ;
WITHIN : 'WITHIN' ;

EQ : '=' ;
EQ2 : '==' ;
NSEQ : '<=>' ;
NEQ : '<>' ;
NEQJ : '!=' ;
LT : '<' ;
LTE : '<=' ;
GT : '>' ;
GTE : '>=' ;
PLUS : '+' ;
MINUS : '-' ;
ASTERISK : '*' ;
SLASH : '/' ;
PERCENT : '%' ;
TILDE : '~' ;
AMPERSAND : '&' ;
PIPE : '|' ;
CONCAT_PIPE : '||' ;
HAT : '^' ;
ARROW : '->' ;
COLON : ':' ;
SEMICOLON : ';' ;
DOUBLE_COLON : '::' ;
LPAREN : '(' ;
RPAREN : ')' ;
LBRACKET : '[' ;
RBRACKET : ']' ;
COMMA : ',' ;
DOT : '.' ;

STRING
    : '\'' ( ~['\\] | '\\' . | '\'\'' )* '\''
    | '"' ( ~["\\] | '\\' . | '""' )* '"'
    ;

BIGINT_LITERAL : DIGIT+ 'L' ;
SMALLINT_LITERAL : DIGIT+ 'S' ;
TINYINT_LITERAL : DIGIT+ 'Y' ;
INTEGER_VALUE : DIGIT+ ;
EXPONENT_VALUE : (DIGIT+ | DECIMAL_DIGITS) EXPONENT ;
DECIMAL_VALUE : DECIMAL_DIGITS ;
FLOAT_LITERAL : (DIGIT+ | DECIMAL_DIGITS) EXPONENT? 'F' ;
DOUBLE_LITERAL : (DIGIT+ | DECIMAL_DIGITS) EXPONENT? 'D' ;
BIGDECIMAL_LITERAL : (DIGIT+ | DECIMAL_DIGITS) EXPONENT? 'BD' ;

IDENTIFIER : (LETTER | '_') (LETTER | DIGIT | '_')* ;
BACKQUOTED_IDENTIFIER : '`' ( ~'`' | '``' )* '`' ;

fragment DECIMAL_DIGITS : DIGIT+ '.' DIGIT* | '.' DIGIT+ ;
fragment EXPONENT : 'E' [+-]? DIGIT+ ;
fragment DIGIT : [0-9] ;
fragment LETTER : [A-Z] | '\u00C0'..'\uFFFE' ;

WS : [ \t\r\n]+ -> channel(HIDDEN) ;
SIMPLE_COMMENT : '--' ~[\r\n]* -> channel(HIDDEN) ;
BRACKETED_COMMENT : '/*' .*? '*/' -> channel(HIDDEN) ;
UNRECOGNIZED : . ;
