/*
 * Spark SQL expressions as Spark 4.2 documents them (sql-ref-syntax, sql-ref-literals, sql-ref-operators):
 * literals, column references, operators with Spark's precedence, predicates, CASE, CAST and ::,
 * function calls, and select items with aliases and *. Keywords are case-insensitive.
 */
grammar SparkExpr;

options { caseInsensitive = true; }

singleExpression : expression EOF ;

selectItem : namedItem EOF ;

selectList : namedItem (COMMA namedItem)* EOF ;

aggregateCall : functionName LPAREN (ASTERISK | expression) RPAREN EOF ;

namedItem
    : ASTERISK                                       #selectAll
    | qualifiedName DOT ASTERISK                     #selectAllOf
    | expression (AS? identifier)?                   #selectExpression
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
    | NOT? IN LPAREN expression (COMMA expression)* RPAREN                                 #inList
    | NOT? kind=(LIKE | RLIKE | REGEXP) pattern=valueExpression (ESCAPE escape=STRING)?   #like
    | IS NOT? NULL                                                                         #isNull
    | IS NOT? value=(TRUE | FALSE)                                                         #isBoolean
    | IS NOT? DISTINCT FROM right=valueExpression                                          #isDistinct
    ;

valueExpression
    : primaryExpression                                                           #primary
    | op=(MINUS | PLUS | TILDE) valueExpression                                   #unary
    | left=valueExpression op=(ASTERISK | SLASH | PERCENT | DIV) right=valueExpression   #multiplicative
    | left=valueExpression op=(PLUS | MINUS | CONCAT_PIPE) right=valueExpression  #additive
    | left=valueExpression op=AMPERSAND right=valueExpression                     #bitAnd
    | left=valueExpression op=HAT right=valueExpression                           #bitXor
    | left=valueExpression op=PIPE right=valueExpression                          #bitOr
    | left=valueExpression op=comparisonOperator right=valueExpression            #comparison
    ;

comparisonOperator : EQ | EQ2 | NEQ | NEQJ | LT | LTE | GT | GTE | NSEQ ;

primaryExpression
    : CASE whenClause+ (ELSE elseExpression=expression)? END                      #searchedCase
    | CASE value=expression whenClause+ (ELSE elseExpression=expression)? END     #simpleCase
    | name=(CAST | TRY_CAST) LPAREN expression AS dataType RPAREN                  #cast
    | constant                                                                     #literal
    | functionName LPAREN (DISTINCT? expression (COMMA expression)*)? RPAREN       #functionCall
    | identifier                                                                   #columnReference
    | base=primaryExpression DOT fieldName=identifier                              #dereference
    | value=primaryExpression LBRACKET index=valueExpression RBRACKET              #subscript
    | LPAREN expression RPAREN                                                     #parenthesized
    | primaryExpression DOUBLE_COLON dataType                                      #castShorthand
    ;

whenClause : WHEN condition=expression THEN result=expression ;

constant
    : NULL                                  #nullLiteral
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
    | identifier (LPAREN INTEGER_VALUE (COMMA INTEGER_VALUE)* RPAREN)?      #primitiveType
    ;

structField : identifier COLON? dataType (NOT NULL)? ;

functionName : identifier | LIKE | RLIKE | REGEXP ;

qualifiedName : identifier (DOT identifier)* ;

identifier
    : IDENTIFIER                            #plainIdentifier
    | BACKQUOTED_IDENTIFIER                 #quotedIdentifier
    | nonReserved                           #keywordIdentifier
    ;

nonReserved : ARRAY | MAP | STRUCT | ESCAPE | DIV | FROM | TRY_CAST ;

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
WHEN : 'WHEN' ;

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
COLON : ':' ;
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
